//! The small rules of the site format: ids, urls, slugs, dates, file references, SKUs.

use std::path::{Component, Path};

use crate::site::urls::{link_category, LinkCategory};

/// Paths the server answers itself; no page may be served at or under them.
pub const RESERVED_PATHS: [&str; 10] =
    ["/config", "/api", "/s", "/pages", "/assets", "/search", "/commerce", "/checkout", "/sitemap.xml", "/robots.txt"];

/// Highest product price, in cents (spec 000 §5).
pub const MAX_PRICE_CENTS: u64 = 100_000_000;
/// Longest SKU (spec 000 §5).
pub const MAX_SKU_LEN: usize = 60;
/// Most products in one collection (spec 000 §9).
pub const MAX_PRODUCTS_PER_COLLECTION: usize = 200;
/// Longest tag (spec 000 §5).
pub const MAX_TAG_LEN: usize = 50;
/// Longest category (spec 000 §5).
pub const MAX_CATEGORY_LEN: usize = 25;
/// Most slides in one gallery (spec 000 §9 "gallery size").
pub const MAX_GALLERY_SLIDES: usize = 50;
/// Most blocks in one layout: a page's or an item's `[[blocks]]` (spec 000 §9).
pub const MAX_BLOCKS_PER_LAYOUT: usize = 60;
/// Most items in a collection whose order its owner sets: galleries and products keep the
/// order of their files (spec 000 §9 "items in a user-orderable collection").
pub const MAX_ORDERABLE_ITEMS: usize = 250;
/// Most distinct categories in one collection (spec 000 §9 "nested categories").
pub const MAX_CATEGORIES: usize = 10_000;

/// Link length limits of spec 000 §5, in characters: an anchor is at most this long…
const MAX_ANCHOR_LEN: usize = 99;
/// …a `tel:` link shorter than this…
const TEL_LEN_UNDER: usize = 50;
/// …a `mailto:` link shorter than this…
const MAILTO_LEN_UNDER: usize = 1000;
/// …and an internal path shorter than this.
const INTERNAL_LEN_UNDER: usize = 150;

/// Why an id is not acceptable, if it is not.
pub fn id_problem(id: &str) -> Option<String> {
    let ok = id.len() == 24 && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    (!ok).then(|| format!("'{id}' must be exactly 24 lowercase letters and digits"))
}

/// Why a page or collection url is not acceptable, if it is not.
pub fn url_problem(url: &str) -> Option<String> {
    if !url.starts_with('/') {
        return Some(format!("'{url}' must start with /"));
    }
    if url.len() > 1 && url.ends_with('/') {
        return Some(format!("'{url}' must not end with /"));
    }
    if url.len() > 1 {
        for segment in url[1..].split('/') {
            if let Some(problem) = slug_problem(segment) {
                return Some(format!("'{url}': {problem}"));
            }
        }
    }
    let reserved =
        RESERVED_PATHS.iter().find(|r| url == **r || url.strip_prefix(**r).is_some_and(|rest| rest.starts_with('/')));
    reserved.map(|r| format!("'{url}' is reserved: the server answers {r} itself"))
}

/// Why a url slug (one path segment) is not acceptable, if it is not.
pub fn slug_problem(slug: &str) -> Option<String> {
    if slug.is_empty() {
        return Some("a path segment is empty".into());
    }
    let ok = slug.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
    (!ok).then(|| format!("'{slug}' may only use lowercase letters, digits, '-' and '.'"))
}

/// Whether `date` is `YYYY-MM-DD` with a real month and day.
pub fn is_date(date: &str) -> bool {
    parses(date, "[year]-[month]-[day]", |v, f| time::Date::parse(v, f).is_ok())
}

/// Whether `value` is `YYYY-MM-DDTHH:MM`.
pub fn is_date_time(value: &str) -> bool {
    parses(value, "[year]-[month]-[day]T[hour]:[minute]", |v, f| time::PrimitiveDateTime::parse(v, f).is_ok())
}

/// Whether `value` parses with the format `description`.
fn parses(
    value: &str,
    description: &str,
    parse: impl Fn(&str, &[time::format_description::BorrowedFormatItem<'_>]) -> bool,
) -> bool {
    // The descriptions are constants of this module; a bad one would reject every value.
    time::format_description::parse_borrowed::<2>(description).is_ok_and(|format| parse(value, &format))
}

/// Why a file reference under `folder/` of the site is not acceptable, if it is not:
/// it must be a relative path without `..` naming an existing file.
pub fn file_problem(site: &Path, folder: &str, name: &str) -> Option<String> {
    let relative = Path::new(name);
    let plain = !name.is_empty() && relative.components().all(|c| matches!(c, Component::Normal(_)));
    if !plain {
        return Some(format!("'{name}' must be a file name inside {folder}/"));
    }
    (!site.join(folder).join(relative).is_file()).then(|| format!("{folder}/{name} does not exist"))
}

/// Whether `url` is an absolute http(s) URL with a host.
pub fn is_http_url(url: &str) -> bool {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    rest.is_some_and(|r| {
        let host = r.split(['/', '?', '#']).next().unwrap_or("");
        !host.is_empty() && !host.contains(char::is_whitespace)
    })
}

/// Why a link an owner wrote (button, image click-through, ticket url...) is not
/// acceptable, if it is not, by its [`LinkCategory`]: it must be a same-site path (content
/// or a file), an anchor, or an http(s), mailto: or tel: URL. Anything else (`javascript:`,
/// `data:`...) could run code.
pub fn link_problem(url: &str) -> Option<String> {
    let trimmed = url.trim();
    let length = trimmed.chars().count();
    let refused = || Some(format!("'{url}' must be a path starting with /, or an http(s), mailto: or tel: link"));
    match link_category(trimmed) {
        LinkCategory::Empty => refused(),
        LinkCategory::Anchor if length > MAX_ANCHOR_LEN => {
            Some(format!("'{url}' is {length} characters; an anchor may have at most {MAX_ANCHOR_LEN}"))
        }
        LinkCategory::Anchor => None,
        LinkCategory::Content | LinkCategory::File if !trimmed.starts_with('/') => refused(),
        LinkCategory::Content | LinkCategory::File if length >= INTERNAL_LEN_UNDER => {
            Some(format!("'{url}' is {length} characters; an internal link must be under {INTERNAL_LEN_UNDER}"))
        }
        LinkCategory::Content | LinkCategory::File => None,
        LinkCategory::External => (!is_http_url(trimmed)).then(refused).flatten(),
        LinkCategory::MalformedProtocol => {
            let scheme = trimmed.split(':').next().unwrap_or_default();
            Some(format!("'{url}' needs // after {scheme}: (e.g. {scheme}://example.com)"))
        }
        LinkCategory::MiscProtocol => {
            if let Some(number) = strip_scheme(trimmed, "tel:") {
                tel_problem(url, number, length)
            } else if let Some(address) = strip_scheme(trimmed, "mailto:") {
                mailto_problem(url, address, length)
            } else {
                refused()
            }
        }
    }
}

/// `url` without its leading `scheme` (given with its colon, lowercase), compared without case.
fn strip_scheme<'a>(url: &'a str, scheme: &str) -> Option<&'a str> {
    url.get(..scheme.len()).filter(|s| s.eq_ignore_ascii_case(scheme)).map(|_| &url[scheme.len()..])
}

/// A `tel:` link is under 50 characters and a proper number: 4 or more digits, plus signs
/// or hyphens (spec 000 §5).
fn tel_problem(url: &str, number: &str, length: usize) -> Option<String> {
    if length >= TEL_LEN_UNDER {
        return Some(format!("'{url}' is {length} characters; a tel: link must be under {TEL_LEN_UNDER}"));
    }
    let proper = number.chars().count() >= 4 && number.chars().all(|c| c.is_ascii_digit() || c == '+' || c == '-');
    (!proper).then(|| format!("'{url}' must be a phone number of 4 or more digits, plus signs or hyphens"))
}

/// A `mailto:` link is under 1000 characters with exactly one `@` and a domain ending in a
/// dot and an extension (spec 000 §5); a query (`?subject=`) may follow.
fn mailto_problem(url: &str, address: &str, length: usize) -> Option<String> {
    if length >= MAILTO_LEN_UNDER {
        return Some(format!("'{url}' is {length} characters; a mailto: link must be under {MAILTO_LEN_UNDER}"));
    }
    let address = address.split('?').next().unwrap_or_default();
    let domain = match address.split('@').collect::<Vec<_>>()[..] {
        [local, domain] if !local.is_empty() => domain,
        _ => return Some(format!("'{url}' must have exactly one @ after a name")),
    };
    let ok = domain
        .rsplit_once('.')
        .is_some_and(|(name, ext)| !name.is_empty() && ext.len() >= 2 && ext.chars().all(|c| c.is_ascii_alphabetic()));
    (!ok).then(|| format!("'{url}' must have a domain ending in a dot and an extension"))
}

/// The SKU given to a variant whose SKU is empty: `SQ` and 7 digits, derived from the
/// item id and the variant's position, so loading the same site twice gives the same SKU.
pub fn generated_sku(item_id: &str, variant_index: usize) -> String {
    // FNV-1a: small, stable across platforms and releases.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in item_id.bytes().chain([b'#']).chain(variant_index.to_string().bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("SQ{:07}", hash % 10_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_24_lowercase_alphanumerics() {
        assert_eq!(id_problem("5f2a9c0e4b1d7a3c8e6f0b12"), None);
        assert!(id_problem("5f2a9c0e4b1d7a3c8e6f0b1").is_some(), "23 characters");
        assert!(id_problem("5f2a9c0e4b1d7a3c8e6f0b123").is_some(), "25 characters");
        assert!(id_problem("5F2A9C0E4B1D7A3C8E6F0B12").is_some(), "uppercase");
        assert!(id_problem("5f2a9c0e-b1d7a3c8e6f0b12").is_some(), "dash");
        assert!(id_problem("").is_some());
    }

    #[test]
    fn urls_start_with_a_slash_and_avoid_reserved_paths() {
        assert_eq!(url_problem("/"), None);
        assert_eq!(url_problem("/about"), None);
        assert_eq!(url_problem("/blog/2024"), None);
        assert!(url_problem("about").is_some());
        assert!(url_problem("/about/").is_some());
        assert!(url_problem("/About").is_some());
        assert!(url_problem("/api").is_some());
        assert!(url_problem("/config/pages").is_some());
        assert!(url_problem("/sitemap.xml").is_some());
        assert_eq!(url_problem("/search-tips"), None, "only the exact path or below it is reserved");
    }

    #[test]
    fn dates_must_be_real_calendar_dates() {
        assert!(is_date("2024-02-29"));
        assert!(!is_date("2023-02-29"));
        assert!(!is_date("29/02/2024"));
        assert!(is_date_time("2024-06-01T18:30"));
        assert!(!is_date_time("2024-06-01 18:30"));
    }

    #[test]
    fn file_references_stay_inside_their_folder() {
        let dir = tempfile::tempdir().expect("temporary directory");
        std::fs::create_dir(dir.path().join("images")).expect("create images/");
        std::fs::write(dir.path().join("images/a.png"), b"x").expect("write file");
        assert_eq!(file_problem(dir.path(), "images", "a.png"), None);
        assert!(file_problem(dir.path(), "images", "b.png").is_some());
        assert!(file_problem(dir.path(), "images", "../images/a.png").is_some());
        assert!(file_problem(dir.path(), "images", "/etc/passwd").is_some());
    }

    #[test]
    fn generated_skus_are_sq_and_seven_digits_and_stable() {
        let sku = generated_sku("5f2a9c0e4b1d7a3c8e6f0b12", 0);
        assert_eq!(sku.len(), 9);
        assert!(sku.starts_with("SQ") && sku[2..].bytes().all(|b| b.is_ascii_digit()), "{sku}");
        assert_eq!(sku, generated_sku("5f2a9c0e4b1d7a3c8e6f0b12", 0));
        assert_ne!(sku, generated_sku("5f2a9c0e4b1d7a3c8e6f0b12", 1));
        assert_ne!(sku, generated_sku("5f2a9c0e4b1d7a3c8e6f0b13", 0));
    }

    #[test]
    fn links_may_not_run_code() {
        for good in ["/menu", "#top", "https://example.com/x", "mailto:a@b.example", "tel:+15550142"] {
            assert_eq!(link_problem(good), None, "{good}");
        }
        for bad in ["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "//evil.example", "menu", ""] {
            assert!(link_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn links_keep_the_spec_lengths() {
        // Spec 000 §5: anchor up to 99 characters; tel under 50; mailto under 1000; internal under 150.
        let anchor = |n: usize| format!("#{}", "a".repeat(n - 1));
        assert_eq!(link_problem(&anchor(99)), None);
        assert!(link_problem(&anchor(100)).is_some());
        let tel = |n: usize| format!("tel:{}", "5".repeat(n - 4));
        assert_eq!(link_problem(&tel(49)), None);
        assert!(link_problem(&tel(50)).is_some());
        let mailto = |n: usize| format!("mailto:{}@b.example", "a".repeat(n - 17));
        assert_eq!(link_problem(&mailto(999)), None);
        assert!(link_problem(&mailto(1000)).is_some());
        let internal = |n: usize| format!("/{}", "a".repeat(n - 1));
        assert_eq!(link_problem(&internal(149)), None);
        assert!(link_problem(&internal(150)).is_some());
    }

    #[test]
    fn tel_and_mailto_links_are_well_formed() {
        for good in ["tel:5550", "tel:+1-555-0142", "mailto:a@b.co", "mailto:hello@cafe.example?subject=Hi"] {
            assert_eq!(link_problem(good), None, "{good}");
        }
        for bad in [
            "tel:555",
            "tel:+1 555 0142",
            "tel:call-me",
            "mailto:a@b",
            "mailto:a@b@c.example",
            "mailto:@b.example",
            "mailto:a@b.",
        ] {
            assert!(link_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn links_are_judged_by_their_spec_category() {
        // 000 §5 categories: file and content paths and anchors pass; a malformed protocol
        // (http, https or ftp without //) and misc protocols other than mailto: and tel: do not.
        assert_eq!(link_problem("/s/menu.pdf"), None, "file");
        let malformed = link_problem("https:example.com").expect("a malformed protocol is refused");
        assert!(malformed.contains("needs // after https:"), "{malformed}");
        assert!(link_problem("ftp://files.example.com").is_some(), "ftp links are refused");
        assert!(link_problem("sms:+15550142").is_some(), "sms links are refused");
        assert!(link_problem("MAILTO:a@b.example").is_none(), "schemes are compared without case");
    }

    #[test]
    fn base_urls_are_http_or_https() {
        assert!(is_http_url("http://127.0.0.1:8080"));
        assert!(is_http_url("https://example.com/"));
        assert!(!is_http_url("ftp://example.com"));
        assert!(!is_http_url("https://"));
        assert!(!is_http_url("example.com"));
    }
}
