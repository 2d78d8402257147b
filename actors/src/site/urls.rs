//! URL helpers of spec 000 §5 and 001 §5: the category of a link an owner writes, and the
//! tokenized form of a blog's post URL pattern.

/// What a link points at (000 §5 "Link categories: empty, anchor, external, file, content,
/// malformed protocol (http, https or ftp without //), misc protocol").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkCategory {
    /// Nothing, or only spaces.
    Empty,
    /// A place on the same page: `#menu`.
    Anchor,
    /// Another site: `https://…`, `http://…`, `ftp://…` or protocol-relative `//…`.
    External,
    /// A file of the site, served under `/s/`: `/s/menu.pdf`.
    File,
    /// Anything else on this site: `/menu`, and a path without a scheme (`menu`).
    Content,
    /// http, https or ftp without `//`: `https:example.com`.
    MalformedProtocol,
    /// Any other scheme: `mailto:`, `tel:`, `sms:`, `javascript:`, `data:`.
    MiscProtocol,
}

/// The schemes whose links must continue with `//`.
const SLASHED_SCHEMES: [&str; 3] = ["http", "https", "ftp"];

/// The category of `url` (surrounding spaces ignored; schemes compared without case).
pub fn link_category(url: &str) -> LinkCategory {
    let url = url.trim();
    if url.is_empty() {
        return LinkCategory::Empty;
    }
    if url.starts_with('#') {
        return LinkCategory::Anchor;
    }
    if url.starts_with("//") {
        return LinkCategory::External;
    }
    if let Some((scheme, rest)) = scheme_of(url) {
        if !SLASHED_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme)) {
            return LinkCategory::MiscProtocol;
        }
        return if rest.starts_with("//") { LinkCategory::External } else { LinkCategory::MalformedProtocol };
    }
    if url == "/s" || url.starts_with("/s/") {
        return LinkCategory::File;
    }
    LinkCategory::Content
}

/// The scheme of `url` and what follows its colon, when it starts with one: a letter, then
/// letters, digits, `+`, `-` or `.`, then `:`.
fn scheme_of(url: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let first = chars.next()?;
    let valid = first.is_ascii_alphabetic() && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some((scheme, rest))
}

/// The tokens a blog URL pattern may hold after a percent sign: year, month, day and the
/// post's title slug.
pub const BLOG_URL_TOKENS: [char; 4] = ['y', 'm', 'd', 't'];

/// A blog URL pattern tokenized as 000 §5 says: lowercase; only letters, digits, slash,
/// hyphen and percent tokens; after a percent sign only `%y`, `%m`, `%d` and `%t` are kept
/// (a percent sign followed by anything else is dropped, and what follows it is read as
/// usual); leading and repeated slashes collapse into one; trailing percent signs are removed.
pub fn tokenize_blog_url(pattern: &str) -> String {
    let lower = pattern.to_lowercase();
    let mut out = String::with_capacity(lower.len());
    let mut chars = lower.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '%' => {
                if let Some(&token) = chars.peek().filter(|t| BLOG_URL_TOKENS.contains(t)) {
                    chars.next();
                    out.push('%');
                    out.push(token);
                }
            }
            '/' if out.ends_with('/') => {}
            'a'..='z' | '0'..='9' | '/' | '-' => out.push(c),
            _ => {}
        }
    }
    let trimmed = out.trim_end_matches('%').len();
    out.truncate(trimmed);
    out
}

/// The path of a post under its blog from a tokenized `pattern`: `%y`, `%m`, `%d` become the
/// year, month and day of `published_on` (`YYYY-MM-DD`), `%t` the post's `slug`; the
/// result has no slash at either end.
pub fn expand_blog_url(pattern: &str, published_on: &str, slug: &str) -> String {
    let mut date = published_on.splitn(3, '-');
    let (year, month, day) = (date.next().unwrap_or(""), date.next().unwrap_or(""), date.next().unwrap_or(""));
    pattern.replace("%y", year).replace("%m", month).replace("%d", day).replace("%t", slug).trim_matches('/').into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_fall_into_the_spec_categories() {
        // 000 §5: empty, anchor, external, file, content, malformed protocol, misc protocol.
        let cases = [
            ("", LinkCategory::Empty),
            ("   ", LinkCategory::Empty),
            ("#menu", LinkCategory::Anchor),
            ("https://example.com/x", LinkCategory::External),
            ("http://example.com", LinkCategory::External),
            ("FTP://files.example.com/a", LinkCategory::External),
            ("//cdn.example.com/a.js", LinkCategory::External),
            ("/s/menu.pdf", LinkCategory::File),
            ("/menu", LinkCategory::Content),
            ("/shop/enamel-mug", LinkCategory::Content),
            ("/search-tips", LinkCategory::Content),
            ("menu", LinkCategory::Content),
            ("http:example.com", LinkCategory::MalformedProtocol),
            ("https:/example.com", LinkCategory::MalformedProtocol),
            ("ftp:files.example.com", LinkCategory::MalformedProtocol),
            ("mailto:a@b.example", LinkCategory::MiscProtocol),
            ("tel:+15550142", LinkCategory::MiscProtocol),
            ("sms:+15550142", LinkCategory::MiscProtocol),
            (" JavaScript:alert(1)", LinkCategory::MiscProtocol),
            ("data:text/html,x", LinkCategory::MiscProtocol),
        ];
        for (url, category) in cases {
            assert_eq!(link_category(url), category, "{url:?}");
        }
    }

    #[test]
    fn blog_url_patterns_are_tokenized_as_the_spec_says() {
        // 000 §5: lowercase; only letters, digits, slash, hyphen and percent tokens; only %y,
        // %m, %d and %t after a percent sign; leading and repeated slashes collapse; trailing
        // percent signs are removed.
        assert_eq!(tokenize_blog_url("%y/%m/%d/%t"), "%y/%m/%d/%t");
        assert_eq!(tokenize_blog_url("Posts/%Y/%T"), "posts/%y/%t");
        assert_eq!(tokenize_blog_url("my_blog posts!/%t"), "myblogposts/%t");
        assert_eq!(tokenize_blog_url("%y-%m/%q%t"), "%y-%m/q%t");
        assert_eq!(tokenize_blog_url("///%y//%t"), "/%y/%t");
        assert_eq!(tokenize_blog_url("%y/%t%%"), "%y/%t");
        assert_eq!(tokenize_blog_url("%t%"), "%t");
        assert_eq!(tokenize_blog_url("café/%t"), "caf/%t");
        assert_eq!(tokenize_blog_url(""), "");
    }

    #[test]
    fn a_post_path_fills_in_the_date_and_the_slug() {
        assert_eq!(expand_blog_url("%y/%m/%d/%t", "2024-05-31", "porch-season"), "2024/05/31/porch-season");
        assert_eq!(expand_blog_url("/%y/%t", "2024-05-31", "porch-season"), "2024/porch-season");
        assert_eq!(expand_blog_url("archive/%y-%m-%t", "2024-05-31", "a"), "archive/2024-05-a");
    }
}
