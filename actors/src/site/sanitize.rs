//! Sanitising the rich text an owner writes, once, when the site is loaded.
//!
//! Rich text keeps headings, paragraphs, lists, links, emphasis, tables and images;
//! scripts, styles, event handlers, `javascript:` URLs, SVG and MathML are removed.
//! Embed code (embed and video blocks) may also keep iframes whose `src` is `https://`.

use std::collections::HashSet;
use std::sync::LazyLock;

use ammonia::Builder;

/// The cleaner for rich text: ammonia's defaults (which never allow script, style, svg,
/// math, `on*` attributes or non-http(s)/mailto/tel URLs).
static RICH_TEXT: LazyLock<Builder<'static>> = LazyLock::new(|| {
    let mut builder = Builder::default();
    builder.url_schemes(HashSet::from(["http", "https", "mailto", "tel"]));
    builder.add_generic_attributes(["id"]);
    builder
});

/// The cleaner for embed code: rich text plus https iframes.
static EMBED: LazyLock<Builder<'static>> = LazyLock::new(|| {
    let mut builder = Builder::default();
    builder.url_schemes(HashSet::from(["http", "https", "mailto", "tel"]));
    builder.add_tags(["iframe"]);
    builder.add_tag_attributes(
        "iframe",
        ["src", "width", "height", "title", "allow", "allowfullscreen", "loading", "referrerpolicy", "frameborder"],
    );
    builder.attribute_filter(|element, attribute, value| {
        if element == "iframe" && attribute == "src" && !value.starts_with("https://") {
            None
        } else {
            Some(value.into())
        }
    });
    builder
});

/// Cleans rich text (text blocks, item bodies, accordion panels, form post-submit HTML).
pub fn rich_text(html: &str) -> String {
    RICH_TEXT.clean(html).to_string()
}

/// Cleans embed code: like [`rich_text`], but iframes with an `https://` source stay.
pub fn embed(html: &str) -> String {
    let cleaned = EMBED.clean(html).to_string();
    // An iframe whose source was dropped would load nothing; remove it entirely.
    drop_sourceless_iframes(&cleaned)
}

/// Removes `<iframe ...></iframe>` elements that have no `src` attribute left.
fn drop_sourceless_iframes(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<iframe") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(open_end) = after.find('>') else {
            out.push_str(after);
            return out;
        };
        let close = after.find("</iframe>").map(|i| i + "</iframe>".len()).unwrap_or(open_end + 1);
        let element = &after[..close.max(open_end + 1)];
        if after[..open_end].contains(" src=\"") {
            out.push_str(element);
        }
        rest = &after[close.max(open_end + 1)..];
    }
    out.push_str(rest);
    out
}

/// The plain text of sanitised HTML: tags removed, common entities decoded, whitespace
/// collapsed. Used for search and excerpts.
pub fn plain_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut tag: Option<String> = None;
    for c in html.chars() {
        match (&mut tag, c) {
            (None, '<') => tag = Some(String::new()),
            (None, _) => text.push(c),
            (Some(name), '>') => {
                if breaks_text(name) {
                    text.push(' ');
                }
                tag = None;
            }
            (Some(name), _) => name.push(c),
        }
    }
    let decoded = text
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether the tag whose inside is `inside` (e.g. `/p` or `br /`) separates words.
fn breaks_text(inside: &str) -> bool {
    let name: String = inside
        .trim_start_matches('/')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    !matches!(
        name.as_str(),
        "a" | "abbr"
            | "b"
            | "bdi"
            | "bdo"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "i"
            | "ins"
            | "kbd"
            | "mark"
            | "q"
            | "s"
            | "samp"
            | "small"
            | "span"
            | "strong"
            | "sub"
            | "sup"
            | "time"
            | "u"
            | "var"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_event_handlers_and_javascript_urls_are_removed() {
        let dirty = r#"<p onclick="steal()">Hi <a href="javascript:alert(1)">there</a></p><script>alert(1)</script><img src="x.png" onerror="alert(2)" alt="x">"#;
        let clean = rich_text(dirty);
        assert!(!clean.contains("script"), "{clean}");
        assert!(!clean.contains("onclick"), "{clean}");
        assert!(!clean.contains("onerror"), "{clean}");
        assert!(!clean.contains("javascript:"), "{clean}");
        assert!(clean.contains("<p>Hi <a"), "{clean}");
        assert!(clean.contains("alt=\"x\""), "{clean}");
    }

    #[test]
    fn svg_math_and_style_are_removed() {
        let clean =
            rich_text("<svg><circle onload=\"x()\"/></svg><math><mi>x</mi></math><style>p{}</style><h2>Hello</h2>");
        assert!(!clean.contains("svg") && !clean.contains("math") && !clean.contains("style"), "{clean}");
        assert!(clean.contains("<h2>Hello</h2>"), "{clean}");
    }

    #[test]
    fn rich_text_drops_iframes_but_embed_keeps_https_ones() {
        let html = r#"<iframe src="https://player.example/v/1" title="Video"></iframe>"#;
        assert!(!rich_text(html).contains("iframe"));
        let kept = embed(html);
        assert!(kept.contains(r#"<iframe src="https://player.example/v/1""#), "{kept}");
    }

    #[test]
    fn embed_drops_plain_http_and_javascript_iframes() {
        let html = r#"<p>a</p><iframe src="http://insecure.example/"></iframe><iframe src="javascript:alert(1)"></iframe><p>b</p>"#;
        let kept = embed(html);
        assert!(!kept.contains("iframe"), "{kept}");
        assert!(kept.contains("<p>a</p>") && kept.contains("<p>b</p>"), "{kept}");
    }

    #[test]
    fn plain_text_strips_tags_and_decodes_entities() {
        assert_eq!(plain_text("<h1>Tea &amp; cake</h1><p>on the\n porch</p>"), "Tea & cake on the porch");
        assert_eq!(
            plain_text("<p>We bake at <em>dawn</em>.<br>Then <a href=\"/x\">rest</a>.</p>"),
            "We bake at dawn. Then rest."
        );
    }
}
