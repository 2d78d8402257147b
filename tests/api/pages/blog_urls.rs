//! A blog's post URL pattern (`urlPattern`, tokens of 000 §5 "Tokenized blog URL") decides
//! where its posts are served and linked.

use veranda_tests::{demo_site_copy, spawn_app_with_site, text_with_status};

/// A copy of the demo site whose blog serves its posts under `/blog/YYYY/MM/slug`.
pub(crate) fn demo_site_with_dated_blog_urls() -> tempfile::TempDir {
    let dir = demo_site_copy(|_| {});
    let path = dir.path().join("collections/blog/collection.toml");
    let text = std::fs::read_to_string(&path).expect("the blog");
    std::fs::write(&path, format!("{text}urlPattern = \"%y/%m/%t\"\n")).expect("written");
    dir
}

#[actix_rt::test]
async fn a_blog_with_a_url_pattern_serves_and_links_its_posts_there() {
    let dir = demo_site_with_dated_blog_urls();
    let app = spawn_app_with_site(dir.path()).await;

    let address = format!("/blog/{}/roasting-our-own", date_path());
    let post = text_with_status(app.get(&address).await, 200).await;
    assert!(post.contains("<h1"), "the post page renders");
    assert_eq!(app.get("/blog/roasting-our-own").await.status(), 404, "the old address names nothing");
    let list = text_with_status(app.get("/blog").await, 200).await;
    let link = format!("href=\"{address}\"");
    assert!(list.contains(&link), "the blog links {link}: {list}");
}

/// `YYYY/MM` of the demo post's `publishedOn`.
fn date_path() -> String {
    let post =
        std::fs::read_to_string(veranda_tests::demo_site_dir().join("collections/blog/items/roasting-our-own.toml"))
            .expect("the demo post");
    let line = post.lines().find(|l| l.starts_with("publishedOn")).expect("a publication date");
    let date = line.split('"').nth(1).expect("a quoted date");
    format!("{}/{}", &date[..4], &date[5..7])
}
