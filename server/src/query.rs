//! Percent-encoding of query-string values, shared by the renderer and the page context
//! (neither imports the other).

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// Characters escaped in a query-string value (everything but `-._~` and alphanumerics).
const QUERY_VALUE: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes a query-string value.
pub fn encode_query(value: &str) -> String {
    utf8_percent_encode(value, QUERY_VALUE).to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_unreserved_characters_stay_as_they_are() {
        assert_eq!(super::encode_query("a-b.c_d~e f|g:1,2"), "a-b.c_d~e%20f%7Cg%3A1%2C2");
    }
}
