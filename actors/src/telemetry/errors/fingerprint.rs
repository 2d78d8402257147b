//! Error fingerprints: errors that are "the same problem" share one. The message, file,
//! line and column are normalised first, so a changing number in a message, a query
//! string or a content hash in a script's name does not split a group.

/// Replaces every run of digits with `0` and collapses whitespace.
pub fn normalise_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    feed_message(message, &mut |piece| out.push_str(piece));
    out
}

/// Hands the normalised message (see [`normalise_message`]) to `out`, piece by piece.
fn feed_message(message: &str, out: &mut impl FnMut(&str)) {
    let mut in_digits = false;
    let mut in_space = false;
    let mut run_start = 0;
    let message = message.trim();
    for (at, c) in message.char_indices() {
        let digit = c.is_ascii_digit();
        let space = !digit && c.is_whitespace();
        if digit || space {
            // The text since the last digit or space goes out as it is.
            out(&message[run_start..at]);
            run_start = at + c.len_utf8();
            if digit && !in_digits {
                out("0");
            } else if space && !in_space {
                out(" ");
            }
        }
        in_digits = digit;
        in_space = space;
    }
    out(&message[run_start..]);
}

/// A script url reduced to its path: scheme, host, query string and fragment removed,
/// and every name part that looks like a content hash (6 or more hex digits holding a
/// digit) or a number replaced with `*`.
pub fn normalise_file(file: &str) -> String {
    let mut out = String::with_capacity(file.len());
    feed_file(file, &mut |piece| out.push_str(piece));
    out
}

/// Hands the normalised file (see [`normalise_file`]) to `out`, piece by piece.
fn feed_file(file: &str, out: &mut impl FnMut(&str)) {
    let without_origin =
        file.split_once("://").map(|(_, rest)| rest.find('/').map_or("/", |i| &rest[i..])).unwrap_or(file);
    let end = without_origin.find(['?', '#']).unwrap_or(without_origin.len());
    let path = &without_origin[..end];
    let token = |token: &str, out: &mut dyn FnMut(&str)| {
        let hashy = token.len() >= 6
            && token.bytes().all(|b| b.is_ascii_hexdigit())
            && token.bytes().any(|b| b.is_ascii_digit());
        let numeric = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
        out(if hashy || numeric { "*" } else { token });
    };
    let mut token_start = 0;
    for (at, c) in path.char_indices() {
        if !c.is_ascii_alphanumeric() {
            token(&path[token_start..at], out);
            out(&path[at..at + c.len_utf8()]);
            token_start = at + c.len_utf8();
        }
    }
    token(&path[token_start..], out);
}

/// 64-bit FNV-1a: stable across processes and versions (unlike `std`'s hasher).
struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// Ends one part (parts are separated by a zero byte).
    fn end_part(&mut self) {
        self.write(b"\0");
    }

    /// A number in decimal digits, or nothing.
    fn write_number(&mut self, number: Option<u32>) {
        if let Some(n) = number {
            self.write(itoa::Buffer::new().format(n).as_bytes());
        }
    }

    /// The hash as 16 lower-case hex digits.
    fn hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        (0..16).rev().map(|nibble| char::from(DIGITS[((self.0 >> (nibble * 4)) & 0xf) as usize])).collect()
    }
}

/// The fingerprint of an error: 16 hex digits, the FNV-1a hash of the normalised
/// message, the normalised file, the line and the column, each ended by a zero byte.
/// Computed as it is read, with no copy of the normalised texts.
pub fn fingerprint(message: &str, file: &str, line: Option<u32>, column: Option<u32>) -> String {
    let mut hash = Fnv1a::new();
    feed_message(message, &mut |piece| hash.write(piece.as_bytes()));
    hash.end_part();
    feed_file(file, &mut |piece| hash.write(piece.as_bytes()));
    hash.end_part();
    hash.write_number(line);
    hash.end_part();
    hash.write_number(column);
    hash.end_part();
    hash.hex()
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
    fn fingerprints_stay_what_stored_groups_were_keyed_by() {
        // Values of the first release's fingerprint (groups are stored under them).
        assert_eq!(fingerprint("boom", "/a.js", Some(1), Some(2)), "54530cbe8374d0de");
        assert_eq!(
            fingerprint(
                "Cannot read properties of undefined (reading 'price12')",
                "http://127.0.0.1/assets/loader-3fa9c01b.js?v=2",
                Some(412),
                Some(17)
            ),
            "7b4418c28d8b345b"
        );
        assert_eq!(fingerprint("Ünïcode   ½ 42x", "https://x/y/Z_9.Q-abcdef0.js#f", None, Some(0)), "6ba464d9c0039e87");
        assert_eq!(fingerprint("", "", None, None), "4d25767f9dce13f5");
        assert_eq!(fingerprint("  lead 7 7  trail ", "no-slash.js", Some(u32::MAX), None), "03fcd539110abd4a");
    }

    #[test]
    fn a_hash_is_sixteen_hex_digits_with_its_leading_zeros() {
        assert_eq!(Fnv1a(0x0a).hex(), "000000000000000a");
        assert_eq!(Fnv1a(0x0123_4567_89ab_cdef).hex(), "0123456789abcdef");
        assert_eq!(Fnv1a(u64::MAX).hex(), "ffffffffffffffff");
    }

    #[test]
    fn normalising_keeps_text_between_digits_and_spaces() {
        assert_eq!(normalise_message("a1b22 c\t\n d"), "a0b0 c d");
        assert_eq!(normalise_message("½ 42x ü"), "½ 0x ü");
        assert_eq!(normalise_file("https://x/y/Z_9.Q-abcdef0.js#f"), "/y/Z_*.Q-*.js");
        assert_eq!(normalise_file("ü/1é"), "ü/*é");
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
