//! Sanitising the rich text an owner writes, once, when the site is loaded.
//!
//! Rich text keeps headings, paragraphs, lists, links, emphasis, tables and images;
//! scripts, styles, event handlers, `javascript:` URLs, SVG and MathML are removed.
//! Embed code (embed and video blocks) may also keep iframes whose `src` is `https://`, and
//! objects and embeds whose address is `https://` (with their type and size only).

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

/// What an embed block's iframes may do: run their scripts, keep their own origin, submit
/// their forms, open windows that work normally, go full screen, and take the visitor's
/// page elsewhere only when the visitor clicks in them, never by themselves. An owner's
/// own `sandbox` attribute is replaced by this one.
pub const EMBED_SANDBOX: &str = "allow-scripts allow-same-origin allow-forms allow-popups \
    allow-popups-to-escape-sandbox allow-presentation allow-top-navigation-by-user-activation";

/// The cleaner for embed code: rich text plus https iframes.
static EMBED: LazyLock<Builder<'static>> = LazyLock::new(embed_builder);

/// The cleaner for embed blocks: embed code whose iframes are sandboxed ([`EMBED_SANDBOX`]).
static EMBED_BLOCK: LazyLock<Builder<'static>> = LazyLock::new(|| {
    let mut builder = embed_builder();
    builder.set_tag_attribute_value("iframe", "sandbox", EMBED_SANDBOX);
    builder
});

fn embed_builder() -> Builder<'static> {
    let mut builder = Builder::default();
    builder.url_schemes(HashSet::from(["http", "https", "mailto", "tel"]));
    builder.add_tags(["iframe", "object", "embed"]);
    builder.add_tag_attributes(
        "iframe",
        ["src", "width", "height", "title", "allow", "allowfullscreen", "loading", "referrerpolicy", "frameborder"],
    );
    // Objects and embeds (spec 001 §5 video embeds) keep their address, type and size only;
    // `<param>` is dropped (it only feeds plug-ins).
    builder.add_tag_attributes("object", ["data", "type", "width", "height"]);
    builder.add_tag_attributes("embed", ["src", "type", "width", "height"]);
    builder.attribute_filter(|element, attribute, value| {
        let address = matches!((element, attribute), ("iframe", "src") | ("object", "data") | ("embed", "src"));
        let media_type = matches!((element, attribute), ("object" | "embed", "type"));
        if (address && !value.starts_with("https://")) || (media_type && !is_player_type(value)) {
            None
        } else {
            Some(value.into())
        }
    });
    builder
}

/// Cleans rich text (text blocks, item bodies, accordion panels, form post-submit HTML).
pub fn rich_text(html: &str) -> String {
    RICH_TEXT.clean(html).to_string()
}

/// Cleans embed code: like [`rich_text`], but iframes, objects and embeds with an
/// `https://` address stay.
pub fn embed(html: &str) -> String {
    finish_embed(&EMBED.clean(html).to_string())
}

/// Cleans an embed block's code: like [`embed`], with every iframe sandboxed.
pub fn embed_block(html: &str) -> String {
    finish_embed(&EMBED_BLOCK.clean(html).to_string())
}

fn finish_embed(cleaned: &str) -> String {
    // An iframe or embed whose address was dropped would load nothing; remove it entirely.
    // An object without one keeps only what it holds (its own `<embed>`, if any).
    drop_addressless_objects(&drop_addressless_embeds(&drop_sourceless_iframes(cleaned)))
}

/// Media types an object or embed may declare: players, never scriptlets or plug-ins
/// that run code (`text/x-scriptlet`, `application/x-java-applet`, ...).
fn is_player_type(value: &str) -> bool {
    let value = value.trim().to_ascii_lowercase();
    value.starts_with("video/")
        || value.starts_with("audio/")
        || value == "text/html"
        || value == "application/x-shockwave-flash"
}

/// Removes `<embed ...>` tags (void elements) without a `src` attribute.
fn drop_addressless_embeds(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<embed") {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let Some(end) = after.find('>') else {
            out.push_str(after);
            return out;
        };
        if after[..end].contains(" src=\"") {
            out.push_str(&after[..=end]);
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Removes the `<object ...>` tags without a `data` attribute, each with one closing tag
/// (so the markup stays balanced); what they held stays.
fn drop_addressless_objects(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut closings_to_drop = 0usize;
    loop {
        let open = rest.find("<object");
        let close = rest.find("</object>");
        match (open, close) {
            (Some(o), c) if c.is_none_or(|c| o < c) => {
                out.push_str(&rest[..o]);
                let after = &rest[o..];
                let Some(end) = after.find('>') else {
                    out.push_str(after);
                    return out;
                };
                if after[..end].contains(" data=\"") {
                    out.push_str(&after[..=end]);
                } else {
                    closings_to_drop += 1;
                }
                rest = &after[end + 1..];
            }
            (_, Some(c)) => {
                out.push_str(&rest[..c]);
                if closings_to_drop > 0 {
                    closings_to_drop -= 1;
                } else {
                    out.push_str("</object>");
                }
                rest = &rest[c + "</object>".len()..];
            }
            _ => break,
        }
    }
    out.push_str(rest);
    out
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
    fn an_embed_blocks_iframes_are_sandboxed_whatever_the_owner_wrote() {
        let html = r#"<iframe src="https://maps.example/e" title="Map" sandbox="allow-top-navigation"></iframe><p>Two doors down.</p>"#;
        let clean = embed_block(html);
        assert_eq!(
            clean,
            format!(
                r#"<iframe src="https://maps.example/e" title="Map" sandbox="{EMBED_SANDBOX}"></iframe><p>Two doors down.</p>"#
            )
        );
        assert!(!embed(html).contains("sandbox"), "video code is rebuilt from its parts instead");
    }

    #[test]
    fn embed_drops_plain_http_and_javascript_iframes() {
        let html = r#"<p>a</p><iframe src="http://insecure.example/"></iframe><iframe src="javascript:alert(1)"></iframe><p>b</p>"#;
        let kept = embed(html);
        assert!(!kept.contains("iframe"), "{kept}");
        assert!(kept.contains("<p>a</p>") && kept.contains("<p>b</p>"), "{kept}");
    }

    #[test]
    fn embed_drops_objects_and_embeds_left_without_an_address_or_with_a_code_type() {
        assert_eq!(embed(r#"<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.example/s.html"></OBJECT>"#), "");
        assert_eq!(embed(r#"<embed src="http://insecure.example/v" type="video/mp4">"#), "");
        let kept = embed(r#"<object type="text/x-scriptlet" data="https://player.example/v"></object>"#);
        assert_eq!(kept, r#"<object data="https://player.example/v"></object>"#, "a code type is dropped");
        let nested = embed(
            r#"<object data="http://old.example/"><embed src="https://www.youtube.com/v/a" type="video/mp4"></object>"#,
        );
        assert_eq!(nested, r#"<embed src="https://www.youtube.com/v/a" type="video/mp4">"#, "balanced: {nested}");
        assert_eq!(embed(&nested), nested, "idempotent");
    }

    #[test]
    fn embed_keeps_objects_with_safe_attributes_only() {
        let html = r#"<object data="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="425" onload="x()" classid="clsid:1" codebase="https://evil.example/"><param name="movie" value="javascript:alert(1)"><embed src="https://www.youtube.com/v/a" type="application/x-shockwave-flash" allowscriptaccess="always" onerror="y()"></object>"#;
        let kept = embed(html);
        assert!(
            kept.contains(
                r#"<object data="https://www.youtube.com/v/a" type="application/x-shockwave-flash" width="425">"#
            ),
            "{kept}"
        );
        assert!(
            kept.contains(r#"<embed src="https://www.youtube.com/v/a" type="application/x-shockwave-flash">"#),
            "{kept}"
        );
        for bad in ["onload", "onerror", "classid", "codebase", "param", "javascript:", "allowscriptaccess"] {
            assert!(!kept.contains(bad), "{bad} left in {kept}");
        }
        for hostile in [
            r#"<object data="javascript:alert(1)"><embed src="data:text/html,<script>alert(1)</script>"></object>"#,
            r#"<object data="http://insecure.example/v"><embed src="//evil.example/v"></object>"#,
            r#"<object data=" javascript:alert(1)"><embed src="JAVASCRIPT:alert(1)"></object>"#,
        ] {
            let kept = embed(hostile);
            assert!(!kept.contains("data=") && !kept.contains("src="), "{kept}");
            assert!(!kept.contains("script") && !kept.contains("evil"), "{kept}");
        }
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
