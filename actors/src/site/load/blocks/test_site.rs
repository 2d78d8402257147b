//! A one-page site for the block readers' tests.

/// A site whose home page holds one block of `kind` with `fields` (TOML lines after its
/// id), with `images/a.png` beside it.
pub(super) fn site_with_block(kind: &str, fields: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |path: &str, text: &str| {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("a file has a parent")).expect("create folders");
        std::fs::write(full, text).expect("write file");
    };
    write(
        "site.toml",
        "[website]\nid = \"0123456789abcdef01234567\"\ntitle = \"Test\"\nbaseUrl = \"https://example.com\"\n",
    );
    write(
        "pages/home.toml",
        &format!(
            "id = \"aaaaaaaaaaaaaaaaaaaaaa01\"\nurl = \"/\"\ntitle = \"Home\"\n[[blocks]]\nkind = \"{kind}\"\n\
             id = \"aaaaaaaaaaaaaaaaaaaaaa02\"\n{fields}\n"
        ),
    );
    write("images/a.png", "x");
    dir
}
