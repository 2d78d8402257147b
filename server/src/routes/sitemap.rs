//! `/sitemap.xml` (every published page and item, as absolute URLs from
//! `website.baseUrl`) and `/robots.txt`, which points crawlers to it.

use actix_web::http::header::{self, HeaderValue};
use actix_web::{web, HttpResponse};

use crate::render::util::encode_path;
use crate::state::AppState;

/// How long the sitemap and robots file may be cached (one hour).
const CACHE_CONTROL: &str = "public, max-age=3600";

/// The XML sitemap.
pub async fn sitemap(state: web::Data<AppState>) -> HttpResponse {
    let site = &state.services.site.current();
    let body = sitemap_xml(&site.settings.website.base_url, site.published_urls());
    HttpResponse::Ok()
        .content_type("application/xml; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL)))
        .body(body)
}

/// `robots.txt`: everything but the configuration area may be crawled.
pub async fn robots(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL)))
        .body(robots_txt(&state.services.site.current().settings.website.base_url))
}

/// The robots file for a site served at `base_url`.
pub fn robots_txt(base_url: &str) -> String {
    format!(
        "User-agent: *\nDisallow: /config/\nDisallow: /api/\n\nSitemap: {}/sitemap.xml\n",
        base_url.trim_end_matches('/')
    )
}

/// A sitemap of `paths` (site paths such as `/` or `/blog/first-post`) under `base_url`.
pub fn sitemap_xml<I, P>(base_url: &str, paths: I) -> String
where
    I: IntoIterator<Item = P>,
    P: AsRef<str>,
{
    let base = base_url.trim_end_matches('/');
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for path in paths {
        let path = path.as_ref();
        let path = path.strip_prefix('/').unwrap_or(path);
        let url = format!("{base}/{}", encode_path(path));
        xml.push_str("  <url><loc>");
        xml.push_str(&xml_escape(&url));
        xml.push_str("</loc></url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemaps_list_absolute_urls() {
        let xml = sitemap_xml("https://example.com/", ["/", "/about", "/blog/first post"]);
        assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        assert!(xml.contains("<loc>https://example.com/</loc>"));
        assert!(xml.contains("<loc>https://example.com/about</loc>"));
        assert!(xml.contains("<loc>https://example.com/blog/first%20post</loc>"));
        assert_eq!(xml.matches("<url>").count(), 3);
    }

    #[test]
    fn robots_points_to_the_sitemap() {
        let robots = robots_txt("https://example.com/");
        assert!(robots.contains("Sitemap: https://example.com/sitemap.xml\n"));
        assert!(robots.contains("Disallow: /config/"));
    }
}
