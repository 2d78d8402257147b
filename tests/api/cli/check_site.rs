//! `veranda check-site`: the demo passes; every problem is named with its file and field.

use std::process::{Command, Stdio};
use std::time::Duration;

use veranda_tests::process::{free_port, veranda_command as veranda, Spawned};
use veranda_tests::repo_root;

#[test]
fn check_site_accepts_the_demo_site() {
    let out = veranda().args(["check-site", "config/sites/demo"]).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn check_site_names_every_problem_with_file_and_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir_all(dir.path().join("pages")).expect("mkdir");
    std::fs::write(
        dir.path().join("site.toml"),
        "[website]\nid = \"NOT-AN-ID\"\ntitle = \"x\"\nbaseUrl = \"http://127.0.0.1\"\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("pages/home.toml"), "title = \"Home\"\nurl = \"/\"\n[[blocks]]\nkind = \"nope\"\n")
        .expect("write");
    let out = veranda().arg("check-site").arg(dir.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.lines().any(|l| l.starts_with("site.toml: website.id: ")), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("pages/home.toml: ")), "{stdout}");
}

/// A copy of the demo site with `commerce.toml` holding `rules`.
fn demo_with_rules(rules: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut copy = Command::new("cp");
    copy.arg("-r").arg("config/sites/demo/.").arg(dir.path()).current_dir(repo_root());
    assert!(copy.status().expect("cp runs").success());
    std::fs::write(dir.path().join("commerce.toml"), rules).expect("write");
    dir
}

#[actix_rt::test]
async fn check_site_checks_commerce_toml_with_file_and_field() {
    let good = demo_with_rules(
        "[[shipping]]\nid = \"post\"\nname = \"Post\"\ncostCents = 450\n\n\
         [[coupons]]\ncode = \"TEN\"\ndiscount = { kind = \"percent\", amount = 10 }\n",
    );
    let out = veranda().arg("check-site").arg(good.path()).output().expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));

    let bad = demo_with_rules(
        "[[shipping]]\nid = \"post\"\ncostCents = \"cheap\"\n\n\
         [[coupons]]\ncode = \"TEN\"\ndiscount = { kind = \"percent\", amount = 250 }\n\n\
         [[taxes]]\nname = \"VAT\"\ncountry = \"Germany\"\nrateMilliPercent = 19000\n",
    );
    let out = veranda().arg("check-site").arg(bad.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    for field in ["shipping[0].costCents", "coupons[0].discount.amount", "taxes[0].country"] {
        assert!(stdout.lines().any(|l| l.starts_with(&format!("commerce.toml: {field}: "))), "{field}: {stdout}");
    }

    let broken = demo_with_rules("[[shipping]\n");
    let out = veranda().arg("check-site").arg(broken.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("commerce.toml: TOML syntax error at line 1"), "{stdout}");

    // The server reads the file with the same loader and refuses to start on it.
    let data = tempfile::tempdir().expect("temp dir");
    let mut serve = Spawned(
        veranda()
            .args(["serve", "--listen", &format!("127.0.0.1:{}", free_port())])
            .args(["--ops-listen", &format!("127.0.0.1:{}", free_port())])
            .arg("--site")
            .arg(bad.path())
            .arg("--data-dir")
            .arg(data.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs"),
    );
    let status = serve.exit_within(Duration::from_secs(60), "serve to refuse a broken commerce.toml").await;
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut serve.0.stderr.take().expect("stderr"), &mut stderr).expect("reads");
    assert!(!status.success());
    assert!(stderr.contains("commerce.toml: coupons[0].discount.amount"), "{stderr}");
}

#[test]
fn check_site_refuses_physical_products_without_a_shipping_option() {
    let dir = demo_with_rules("");
    std::fs::remove_file(dir.path().join("commerce.toml")).expect("remove");
    let out = veranda().arg("check-site").arg(dir.path()).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.contains("'Enamel porch mug'")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.starts_with("commerce.toml: shipping: "), "{line}");

    // Goods that are not shipped need no option.
    let digital = demo_with_rules("");
    std::fs::remove_file(digital.path().join("commerce.toml")).expect("remove");
    for entry in std::fs::read_dir(digital.path().join("collections/shop/items")).expect("items") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("reads");
        if text.contains("productType = \"physical\"") {
            std::fs::remove_file(&path).expect("remove");
        }
    }
    let out = veranda().arg("check-site").arg(digital.path()).output().expect("runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("commerce.toml: shipping"), "{stdout}");
}

#[test]
fn check_site_on_a_missing_directory_fails_clearly() {
    let out = veranda().args(["check-site", "/nonexistent/site"]).output().expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("site.toml"));
}
