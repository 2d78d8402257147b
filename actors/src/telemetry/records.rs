//! Record keys and the wall clock used by the telemetry trees.
//!
//! A record key is 16 bytes: the unix time in milliseconds then a process-wide sequence
//! number, both big-endian, so a prefix scan returns records in arrival order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The most telemetry a crash may lose: records acknowledged longer ago than this are on
/// disk. It is the error queue's batch interval, plus the writer's queue (bounded, a few
/// milliseconds), plus the store's telemetry flush interval (500 ms). Trace entries are
/// journaled through the writer as each request is acknowledged, so the trace flusher's
/// 30 s batches do not widen it ([`traces`](super::traces)).
pub const TELEMETRY_LOSS_WINDOW: Duration = Duration::from_secs(1);

/// Milliseconds since the unix epoch (0 if the clock is before it).
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// A fresh, time-ordered, unique record key.
pub fn record_key(now_ms: u64) -> [u8; 16] {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&now_ms.to_be_bytes());
    key[8..].copy_from_slice(&sequence.to_be_bytes());
    key
}

/// Truncates `text` to at most `max` characters (not bytes).
pub fn truncate_chars(text: &str, max: usize) -> String {
    chars_prefix(text, max).to_string()
}

/// The first `max` characters (not bytes) of `text`, or all of it: [`truncate_chars`]
/// without the copy, for a text that is only looked at.
pub fn chars_prefix(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// [`truncate_chars`] of an owned text, in place: nothing is copied, and a text of at
/// most `max` bytes is not even counted.
pub fn truncated(mut text: String, max: usize) -> String {
    if text.len() > max {
        let end = chars_prefix(&text, max).len();
        text.truncate(end);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_texts_are_truncated_by_characters_in_place() {
        for (text, max) in
            [("", 3), ("abc", 3), ("abcd", 3), ("ééééé", 3), ("ééé", 4), ("aé", 1), ("日本語テキスト", 5)]
        {
            assert_eq!(truncated(text.to_string(), max), truncate_chars(text, max), "{text} to {max}");
        }
        assert_eq!(chars_prefix("日本語テキスト", 3), "日本語");
        assert_eq!(chars_prefix("aé", 5), "aé");
        assert_eq!(chars_prefix("aé", 1), "a");
    }

    #[test]
    fn record_keys_sort_by_time_then_arrival() {
        let a = record_key(5);
        let b = record_key(5);
        let c = record_key(4);
        assert!(a < b);
        assert!(c < a);
    }

    #[test]
    fn truncation_counts_characters() {
        assert_eq!(truncate_chars("héllo", 2), "hé");
        assert_eq!(truncate_chars("ab", 5), "ab");
    }
}
