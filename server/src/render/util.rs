//! Small helpers the renderers share: JSON that is safe inside a `<script>` element,
//! owner-written links checked for a safe scheme, URLs of site images and files, and
//! human-readable dates.

use percent_encoding::{utf8_percent_encode, AsciiSet, CONTROLS};
use serde::Serialize;

/// Characters escaped in one path segment (everything but unreserved characters).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'`')
    .add(b'{')
    .add(b'}')
    .add(b'\'')
    .add(b'\\')
    .add(b'^')
    .add(b'|')
    .add(b'[')
    .add(b']')
    .add(b'&')
    .add(b'+')
    .add(b';')
    .add(b'=')
    .add(b':')
    .add(b'@')
    .add(b',')
    .add(b'$');

/// Serialises `value` as JSON that can sit inside a `<script>` element: `<`, `>`, `&`
/// and the line separators U+2028/U+2029 become `\uXXXX` escapes, which JSON reads back
/// as the same characters. Serialisation failures give `null`.
pub fn script_json<T: Serialize>(value: &T) -> String {
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            other => out.push(other),
        }
    }
    out
}

/// An owner-written link, if its scheme is safe to put in `href`: same-site paths,
/// fragments, `http(s)`, `mailto` and `tel`. `javascript:`, `data:` and the like give None.
pub fn safe_href(url: &str) -> Option<&str> {
    let url = url.trim();
    if url.is_empty() || url.chars().any(|c| c.is_control()) {
        return None;
    }
    if url.starts_with('/') || url.starts_with('#') || url.starts_with('?') {
        // `//host` is protocol-relative: still http(s).
        return Some(url);
    }
    let lower = url.to_ascii_lowercase();
    let allowed = ["http://", "https://", "mailto:", "tel:"];
    if allowed.iter().any(|s| lower.starts_with(s)) {
        return Some(url);
    }
    // A relative path has no scheme: no `:` before the first `/`, `?` or `#`.
    let head = url.split(['/', '?', '#']).next().unwrap_or(url);
    (!head.contains(':')).then_some(url)
}

/// Percent-encodes a relative path segment by segment (keeps `/`).
pub fn encode_path(path: &str) -> String {
    path.split('/').map(|s| utf8_percent_encode(s, SEGMENT).to_string()).collect::<Vec<_>>().join("/")
}

pub use crate::query::encode_query;

/// URL of an image in the site's `images/` folder.
pub fn image_url(src: &str) -> String {
    format!("/images/{}", encode_path(src.trim_start_matches('/')))
}

/// URL of a file in the site's `files/` folder.
pub fn file_url(src: &str) -> String {
    format!("/s/{}", encode_path(src.trim_start_matches('/')))
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The month name of a `YYYY-MM…` string with its year ("March 2026"), or the input.
pub fn human_month(date: &str) -> String {
    match parse_ymd(date) {
        Some((y, m, _)) => format!("{} {y}", MONTHS[m - 1]),
        None => date.to_string(),
    }
}

/// `YYYY-MM-DD…` as "March 14, 2026"; a time part `THH:MM` is added as "7:30 PM".
/// Anything else is returned as written.
pub fn human_date(date: &str) -> String {
    let Some((y, m, d)) = parse_ymd(date) else { return date.to_string() };
    let day = format!("{} {d}, {y}", MONTHS[m - 1]);
    match date.get(10..).and_then(|t| t.strip_prefix('T')).and_then(parse_hm) {
        Some((h, min)) => {
            let (h12, ampm) = match h {
                0 => (12, "AM"),
                1..=11 => (h, "AM"),
                12 => (12, "PM"),
                _ => (h - 12, "PM"),
            };
            format!("{day}, {h12}:{min:02} {ampm}")
        }
        None => day,
    }
}

fn parse_ymd(date: &str) -> Option<(u32, usize, u32)> {
    let y: u32 = date.get(0..4)?.parse().ok()?;
    (date.get(4..5)? == "-").then_some(())?;
    let m: usize = date.get(5..7)?.parse().ok()?;
    let d: u32 = match date.get(7..10) {
        Some(rest) if rest.starts_with('-') => rest[1..].parse().ok()?,
        _ => 1,
    };
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

fn parse_hm(time: &str) -> Option<(u32, u32)> {
    let h: u32 = time.get(0..2)?.parse().ok()?;
    let m: u32 = time.get(3..5)?.parse().ok()?;
    (time.get(2..3)? == ":" && h < 24 && m < 60).then_some((h, m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_script_element() {
        let json = script_json(&"</script><script>alert(1)</script>&\u{2028}");
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'));
        assert!(!json.contains('\u{2028}'));
        let back: String = serde_json::from_str(&json).expect("escaped JSON parses");
        assert_eq!(back, "</script><script>alert(1)</script>&\u{2028}");
    }

    #[test]
    fn unsafe_link_schemes_are_dropped() {
        for bad in ["javascript:alert(1)", " JavaScript:x", "data:text/html,x", "vbscript:x", "java\nscript:x", ""] {
            assert_eq!(safe_href(bad), None, "{bad:?}");
        }
        for good in ["/about", "#main", "https://example.com", "mailto:a@b.c", "tel:+1555", "about/us", "page?a=b:c"] {
            assert_eq!(safe_href(good), Some(good), "{good:?}");
        }
    }

    #[test]
    fn paths_and_queries_are_encoded() {
        assert_eq!(image_url("porch night.jpg"), "/images/porch%20night.jpg");
        assert_eq!(file_url("audio/a&b.mp3"), "/s/audio/a%26b.mp3");
        assert_eq!(encode_query("https://x.y/a?b=c"), "https%3A%2F%2Fx.y%2Fa%3Fb%3Dc");
    }

    #[test]
    fn dates_read_like_dates() {
        assert_eq!(human_date("2026-03-14"), "March 14, 2026");
        assert_eq!(human_date("2026-03-14T19:30"), "March 14, 2026, 7:30 PM");
        assert_eq!(human_date("2026-03-14T00:05"), "March 14, 2026, 12:05 AM");
        assert_eq!(human_date("soon"), "soon");
        assert_eq!(human_month("2026-11-02"), "November 2026");
    }
}
