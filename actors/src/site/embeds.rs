//! Which providers a video block may embed, and the safe rebuild of its embed code.
//!
//! A video's embed (an `<iframe>`, or an `<object>` with an `<embed>`, spec 001 §5) loads
//! a page or player from its provider. Only providers on the allow-list are embedded:
//! [`DEFAULT_EMBED_PROVIDERS`] (the hosts a site builder's owners paste from), extended by
//! the site's `[embeds] providers` setting. A URL is allowed when it is `https://`, has no
//! user name or password, uses the default port, and its host is a listed domain or one of
//! its subdomains (`player.vimeo.com` for `vimeo.com`; `vimeo.com.evil.example` and
//! `evilvimeo.com` are not). Embed blocks (arbitrary embed code) keep any https iframe;
//! the list applies to video blocks only.

use url::{Host, Url};

/// Video and media providers embedded without configuration.
pub const DEFAULT_EMBED_PROVIDERS: [&str; 22] = [
    "youtube.com",
    "youtube-nocookie.com",
    "vimeo.com",
    "dailymotion.com",
    "wistia.com",
    "wistia.net",
    "loom.com",
    "vidyard.com",
    "twitch.tv",
    "facebook.com",
    "instagram.com",
    "tiktok.com",
    "streamable.com",
    "ted.com",
    "jwplayer.com",
    "jwplatform.com",
    "brightcove.net",
    "kaltura.com",
    "soundcloud.com",
    "spotify.com",
    "bilibili.com",
    "rumble.com",
];

/// The providers a site may embed in its video blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedAllowList {
    domains: Vec<String>,
}

impl Default for EmbedAllowList {
    fn default() -> Self {
        Self::new(&[])
    }
}

impl EmbedAllowList {
    /// The default providers plus `extra` (domains as written in the site setting; entries
    /// that are not valid domains are ignored here and reported by [`provider_problem`]).
    pub fn new(extra: &[String]) -> Self {
        let mut domains: Vec<String> = DEFAULT_EMBED_PROVIDERS.iter().map(|d| d.to_string()).collect();
        for d in extra {
            let d = d.trim().to_ascii_lowercase();
            if provider_problem(&d).is_none() && !domains.contains(&d) {
                domains.push(d);
            }
        }
        Self { domains }
    }

    /// Whether `src` may be embedded: https, no userinfo, default port, and a host that is a
    /// listed domain or a subdomain of one.
    pub fn allows(&self, src: &str) -> bool {
        if src.chars().any(|c| c.is_whitespace() || c.is_control() || "\"'<>`\\".contains(c)) {
            return false;
        }
        let Ok(url) = Url::parse(src) else { return false };
        if url.scheme() != "https" || !url.username().is_empty() || url.password().is_some() || url.port().is_some() {
            return false;
        }
        let Some(Host::Domain(host)) = url.host() else { return false };
        let host = host.trim_end_matches('.');
        self.domains.iter().any(|d| host == d || host.strip_suffix(d.as_str()).is_some_and(|rest| rest.ends_with('.')))
    }
}

/// Why `domain` cannot be an embed provider in the site setting, if it cannot: it must be
/// a bare lowercase domain with at least two labels (`videos.example.com`), no scheme,
/// path, port or wildcard.
pub fn provider_problem(domain: &str) -> Option<String> {
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    };
    if domain.len() > 253 || labels.len() < 2 || !labels.iter().all(label_ok) {
        return Some(format!(
            "'{domain}' is not a provider domain (write a bare lowercase domain such as videos.example.com)"
        ));
    }
    None
}

/// Why `template` cannot be the map tile address, if it cannot: an `http(s)://` address
/// with `{z}`, `{x}` and `{y}`, no quotes, spaces or angle brackets.
pub fn tile_url_problem(template: &str) -> Option<String> {
    let scheme_ok = template.starts_with("https://") || template.starts_with("http://");
    let chars_ok = !template.chars().any(|c| c.is_whitespace() || c.is_control() || "\"'<>`\\".contains(c));
    let parts_ok = ["{z}", "{x}", "{y}"].iter().all(|p| template.contains(p));
    (!(scheme_ok && chars_ok && parts_ok && template.len() <= 500)).then(|| {
        format!("'{template}' is not a tile address (an http(s) address with {{z}}, {{x}} and {{y}}, e.g. https://tile.openstreetmap.org/{{z}}/{{x}}/{{y}}.png)")
    })
}

/// The message for an embed whose source is not on the allow-list.
pub fn not_allowed_message(src: &str) -> String {
    format!("'{src}' is not from an allowed embed provider (add its domain to [embeds] providers in site.toml)")
}

/// A video embed rebuilt from its parts, with safe attributes only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VideoEmbed {
    /// An iframe: its source and size.
    Iframe {
        /// The https source on an allowed provider.
        src: String,
        /// Width attribute, when numeric.
        width: Option<u32>,
        /// Height attribute, when numeric.
        height: Option<u32>,
    },
    /// An object with an embed: the address both load, its media type, and size.
    Object {
        /// The https address on an allowed provider (the object's `data`, else the embed's `src`).
        src: String,
        /// A media type the browser may play (`video/*` or `application/x-shockwave-flash`).
        media_type: Option<String>,
        /// Width attribute, when numeric.
        width: Option<u32>,
        /// Height attribute, when numeric.
        height: Option<u32>,
    },
}

impl VideoEmbed {
    /// The embedded address.
    pub fn src(&self) -> &str {
        match self {
            VideoEmbed::Iframe { src, .. } | VideoEmbed::Object { src, .. } => src,
        }
    }
}

/// Why a video's embed html cannot be embedded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedRefusal {
    /// No iframe, or an object without an embed, or missing html (spec 001 §5).
    Invalid,
    /// The element's address is missing, not https, or not on the allow-list.
    NotAllowed(String),
}

/// The first iframe, or object with an embed, of `html` (raw or sanitised), rebuilt from
/// its safe parts when its address is on `allow`.
pub fn video_embed(html: &str, allow: &EmbedAllowList) -> Result<VideoEmbed, EmbedRefusal> {
    let lower = html.to_ascii_lowercase();
    let iframe = open_tag(&lower, "iframe");
    let object = open_tag(&lower, "object");
    match (iframe, object) {
        (Some(i), o) if o.is_none_or(|o| i < o) => {
            let tag = tag_text(html, &lower, i, "iframe").ok_or(EmbedRefusal::Invalid)?;
            let src = attribute(tag, "src").unwrap_or_default();
            if !allow.allows(&src) {
                return Err(EmbedRefusal::NotAllowed(src));
            }
            Ok(VideoEmbed::Iframe { src, width: number(tag, "width"), height: number(tag, "height") })
        }
        (_, Some(o)) => {
            let object_tag = tag_text(html, &lower, o, "object").ok_or(EmbedRefusal::Invalid)?;
            let inside_end = lower[o..].find("</object").map_or(lower.len(), |e| o + e);
            let embed_at = open_tag(&lower[o..inside_end], "embed").map(|e| o + e).ok_or(EmbedRefusal::Invalid)?;
            let embed_tag = tag_text(html, &lower, embed_at, "embed").ok_or(EmbedRefusal::Invalid)?;
            let data = attribute(object_tag, "data").filter(|d| !d.trim().is_empty());
            let embed_src = attribute(embed_tag, "src").filter(|d| !d.trim().is_empty());
            // Every address the object would load must be allowed, not just the first.
            let sources: Vec<String> = data.iter().chain(embed_src.iter()).cloned().collect();
            let Some(src) = sources.first().cloned() else { return Err(EmbedRefusal::NotAllowed(String::new())) };
            if let Some(bad) = sources.iter().find(|s| !allow.allows(s)) {
                return Err(EmbedRefusal::NotAllowed(bad.clone()));
            }
            let media_type = attribute(object_tag, "type")
                .or_else(|| attribute(embed_tag, "type"))
                .map(|t| t.trim().to_ascii_lowercase())
                .filter(|t| playable_type(t));
            let width = number(object_tag, "width").or_else(|| number(embed_tag, "width"));
            let height = number(object_tag, "height").or_else(|| number(embed_tag, "height"));
            Ok(VideoEmbed::Object { src, media_type, width, height })
        }
        _ => Err(EmbedRefusal::Invalid),
    }
}

/// Media types an object may declare: video formats and the legacy player plug-in type.
fn playable_type(t: &str) -> bool {
    (t.starts_with("video/") && t.len() > 6 && t[6..].bytes().all(|b| b.is_ascii_alphanumeric() || b"-.+".contains(&b)))
        || t == "application/x-shockwave-flash"
}

/// The byte offset of the first `<name` that opens a `name` element in `lower`.
fn open_tag(lower: &str, name: &str) -> Option<usize> {
    let open = format!("<{name}");
    lower.match_indices(&open).map(|(i, _)| i).find(|&i| {
        lower[i + open.len()..].chars().next().is_some_and(|c| c == '>' || c == '/' || c.is_ascii_whitespace())
    })
}

/// The attribute text of the tag opened at `at` (between the name and the `>` that
/// closes the tag; a `>` inside a quoted value does not).
fn tag_text<'a>(html: &'a str, _lower: &str, at: usize, name: &str) -> Option<&'a str> {
    let start = at + 1 + name.len();
    let mut quote: Option<u8> = None;
    for (i, b) in html.as_bytes().iter().enumerate().skip(start) {
        match (quote, *b) {
            (None, b'"' | b'\'') => quote = Some(*b),
            (Some(q), c) if c == q => quote = None,
            (None, b'>') => return html.get(start..i),
            _ => {}
        }
    }
    None
}

fn number(tag: &str, name: &str) -> Option<u32> {
    attribute(tag, name).and_then(|v| v.trim().parse().ok()).filter(|n| *n > 0 && *n <= 10_000)
}

/// The value of attribute `attr` in a tag's attribute text, with `&amp;` decoded.
pub fn attribute(tag: &str, attr: &str) -> Option<String> {
    let mut rest = tag.trim_start();
    while !rest.is_empty() {
        let name_end = rest.find(|c: char| c == '=' || c == '/' || c.is_whitespace()).unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let value = if let Some(after) = rest.strip_prefix('=') {
            let after = after.trim_start();
            let (value, remaining) = match after.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let close = after[1..].find(q)? + 1;
                    (&after[1..close], &after[close + 1..])
                }
                _ => {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                }
            };
            rest = remaining.trim_start();
            Some(value)
        } else {
            rest = rest.trim_start_matches('/').trim_start();
            None
        };
        if attr.eq_ignore_ascii_case(name) {
            return value.map(|v| v.replace("&amp;", "&"));
        }
        if name_end == 0 && value.is_none() {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list() -> EmbedAllowList {
        EmbedAllowList::new(&["videos.example.com".to_string()])
    }

    #[test]
    fn listed_providers_and_their_subdomains_are_allowed() {
        let allow = list();
        for ok in [
            "https://www.youtube.com/embed/abc",
            "https://www.youtube-nocookie.com/embed/abc?rel=0",
            "https://player.vimeo.com/video/1",
            "https://vimeo.com/1",
            "https://fast.wistia.net/embed/iframe/x",
            "https://videos.example.com/v/1",
            "https://cdn.videos.example.com/v/1",
            "https://www.youtube.com:443/embed/abc",
            "HTTPS://WWW.YOUTUBE.COM/embed/abc",
        ] {
            assert!(allow.allows(ok), "{ok}");
        }
    }

    #[test]
    fn hostile_addresses_are_refused() {
        let allow = list();
        for bad in [
            "javascript:alert(1)//youtube.com",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "data:text/html;base64,PHNjcmlwdD4=",
            "http://www.youtube.com/embed/abc",
            "//www.youtube.com/embed/abc",
            "/embed/abc",
            "https://youtube.com.evil.example/embed",
            "https://evilyoutube.com/embed",
            "https://www.youtube.co/embed",
            "https://example.com/youtube.com",
            "https://www.youtube.com@evil.example/embed",
            "https://user:pass@www.youtube.com/embed",
            "https://user@www.youtube.com/embed",
            "https://www.youtube.com:8443/embed",
            "https://player.vimeo.com:444/video/1",
            "https://127.0.0.1/embed",
            "https://[::1]/embed",
            "https://www.youtube.com/embed/a b",
            "https://www.youtube.com/embed/\"onload=x",
            "https://example.com/v/1",
            "",
            "https://",
        ] {
            assert!(!allow.allows(bad), "{bad}");
        }
        assert!(!EmbedAllowList::default().allows("https://videos.example.com/v/1"));
    }

    #[test]
    fn provider_settings_must_be_bare_domains() {
        assert_eq!(provider_problem("videos.example.com"), None);
        for bad in [
            "https://videos.example.com",
            "example",
            "*.example.com",
            "Example.com",
            "a..b",
            "-a.com",
            "a.com:8443",
            "a.com/x",
            "",
        ] {
            assert!(provider_problem(bad).is_some(), "{bad}");
        }
        // A bad entry does not widen the list.
        assert!(!EmbedAllowList::new(&["*.com".into()]).allows("https://evil.com/"));
    }

    #[test]
    fn tile_addresses_need_the_three_parts() {
        assert_eq!(tile_url_problem("http://127.0.0.1:9000/{z}/{x}/{y}.png"), None);
        for bad in [
            "javascript:alert(1)/{z}/{x}/{y}",
            "https://t.example/{z}/{x}.png",
            "https://t.example/{z}/{x}/{y}\"onload",
            "",
        ] {
            assert!(tile_url_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn iframes_are_rebuilt_from_source_and_size() {
        let html = r#"<div><iframe src="https://player.vimeo.com/video/1?a=1&amp;b=2" width="640" height="360" onload="x()"></iframe></div>"#;
        assert_eq!(
            video_embed(html, &list()),
            Ok(VideoEmbed::Iframe {
                src: "https://player.vimeo.com/video/1?a=1&b=2".into(),
                width: Some(640),
                height: Some(360)
            })
        );
        let bad = r#"<iframe src="https://evil.example/x"></iframe>"#;
        assert_eq!(video_embed(bad, &list()), Err(EmbedRefusal::NotAllowed("https://evil.example/x".into())));
        assert_eq!(
            video_embed(r#"<iframe src="javascript:alert(1)">"#, &list()),
            Err(EmbedRefusal::NotAllowed("javascript:alert(1)".into()))
        );
        assert_eq!(video_embed("<iframe>", &list()), Err(EmbedRefusal::NotAllowed(String::new())));
    }

    #[test]
    fn objects_need_an_embed_and_every_address_allowed() {
        let allow = list();
        let ok = r#"<object data="https://www.youtube.com/v/abc" type="application/x-shockwave-flash" width="425" height="344"><param name="movie" value="https://www.youtube.com/v/abc"><param name="allowScriptAccess" value="always"><embed src="https://www.youtube.com/v/abc" type="application/x-shockwave-flash" allowscriptaccess="always"></object>"#;
        assert_eq!(
            video_embed(ok, &allow),
            Ok(VideoEmbed::Object {
                src: "https://www.youtube.com/v/abc".into(),
                media_type: Some("application/x-shockwave-flash".into()),
                width: Some(425),
                height: Some(344),
            })
        );
        let embed_only =
            r#"<object width="10"><embed src="https://videos.example.com/v.mp4" type="video/mp4"></object>"#;
        assert!(
            matches!(video_embed(embed_only, &allow), Ok(VideoEmbed::Object { ref src, .. }) if src == "https://videos.example.com/v.mp4")
        );
        assert_eq!(
            video_embed(r#"<object data="https://www.youtube.com/v/a"></object>"#, &allow),
            Err(EmbedRefusal::Invalid)
        );
        for bad in [
            r#"<object data="https://www.youtube.com/v/a"><embed src="https://evil.example/x"></object>"#,
            r#"<object data="data:text/html,<script>alert(1)</script>"><embed src="https://www.youtube.com/v/a"></object>"#,
            r#"<object data="javascript:alert(1)"><embed></object>"#,
            r#"<object><embed></object>"#,
        ] {
            assert!(matches!(video_embed(bad, &allow), Err(EmbedRefusal::NotAllowed(_))), "{bad}");
        }
        let typed = r#"<object data="https://www.youtube.com/v/a" type="text/html"><embed src="https://www.youtube.com/v/a"></object>"#;
        assert!(matches!(video_embed(typed, &allow), Ok(VideoEmbed::Object { media_type: None, .. })));
        assert_eq!(video_embed("", &allow), Err(EmbedRefusal::Invalid));
        assert_eq!(video_embed("<p>text</p>", &allow), Err(EmbedRefusal::Invalid));
    }
}
