//! Error fingerprints: errors that are "the same problem" share one. The message, file,
//! line and column are normalised first, so a changing number in a message, a query
//! string or a content hash in a script's name does not split a group.

/// Replaces every run of digits with `0` and collapses whitespace.
pub fn normalise_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_digits = false;
    let mut in_space = false;
    for c in message.trim().chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('0');
            }
            in_digits = true;
            in_space = false;
        } else if c.is_whitespace() {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
            in_digits = false;
        } else {
            out.push(c);
            in_digits = false;
            in_space = false;
        }
    }
    out
}

/// A script url reduced to its path: scheme, host, query string and fragment removed,
/// and every name part that looks like a content hash (6 or more hex digits holding a
/// digit) or a number replaced with `*`.
pub fn normalise_file(file: &str) -> String {
    let without_origin =
        file.split_once("://").map(|(_, rest)| rest.find('/').map_or("/", |i| &rest[i..])).unwrap_or(file);
    let end = without_origin.find(['?', '#']).unwrap_or(without_origin.len());
    let path = &without_origin[..end];
    let mut out = String::with_capacity(path.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        let hashy = token.len() >= 6
            && token.bytes().all(|b| b.is_ascii_hexdigit())
            && token.bytes().any(|b| b.is_ascii_digit());
        let numeric = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
        out.push_str(if hashy || numeric { "*" } else { token.as_str() });
        token.clear();
    };
    for c in path.chars() {
        if c.is_ascii_alphanumeric() {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// 64-bit FNV-1a: stable across processes and versions (unlike `std`'s hasher).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.iter().chain(b"\0") {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// The fingerprint of an error: 16 hex digits.
pub fn fingerprint(message: &str, file: &str, line: Option<u32>, column: Option<u32>) -> String {
    let message = normalise_message(message);
    let file = normalise_file(file);
    let line = line.map(|l| l.to_string()).unwrap_or_default();
    let column = column.map(|c| c.to_string()).unwrap_or_default();
    format!("{:016x}", fnv1a(&[message.as_bytes(), file.as_bytes(), line.as_bytes(), column.as_bytes()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_do_not_split_groups() {
        assert_eq!(normalise_message("Timeout  after 3000 ms"), "Timeout after 0 ms");
        assert_eq!(
            fingerprint("Item 12 missing", "/a.js", Some(1), Some(2)),
            fingerprint("Item 7 missing", "/a.js", Some(1), Some(2))
        );
    }

    #[test]
    fn query_strings_origins_and_content_hashes_are_ignored() {
        assert_eq!(normalise_file("https://x.example/assets/loader-3fa9c01b.js?v=2#x"), "/assets/loader-*.js");
        assert_eq!(normalise_file("/assets/chunk.123.js"), "/assets/chunk.*.js");
        assert_eq!(normalise_file("/assets/facade.js"), "/assets/facade.js");
        assert_eq!(
            fingerprint("boom", "https://a.example/x-abcdef12.js?q=1", Some(3), Some(4)),
            fingerprint("boom", "http://b.example/x-0123abcd.js", Some(3), Some(4))
        );
    }

    #[test]
    fn different_places_make_different_groups() {
        let base = fingerprint("boom", "/a.js", Some(1), Some(1));
        assert_ne!(base, fingerprint("bang", "/a.js", Some(1), Some(1)));
        assert_ne!(base, fingerprint("boom", "/b.js", Some(1), Some(1)));
        assert_ne!(base, fingerprint("boom", "/a.js", Some(2), Some(1)));
        assert_ne!(base, fingerprint("boom", "/a.js", Some(1), None));
        assert_eq!(base.len(), 16);
    }
}
