//! How census hits are stored: the hits one round of the
//! [`TelemetryWriter`](super::TelemetryWriter) gathers go into the census tree as one
//! record, not a record each.
//!
//! A hit is the busiest record there is (every page view), and each store record costs an
//! insert, its share of a node split and its log entry, whatever its size: a round of
//! hits as one record costs the store one insert. A stored census record is
//!
//! - key: the record key ([`record_key`](super::records::record_key)) of its newest hit,
//!   then the number of hits, 4 bytes big-endian. Retention and the size limit read the
//!   time from the key's first 8 bytes as for every time-ordered tree, so a record goes
//!   only once its newest hit is past the window; and they count the hits they remove from
//!   the key, without reading the value.
//! - value: the hits as a JSON array, in the order they came.
//!
//! A lone hit's record (a 16-byte key, one JSON object: how hits were stored before) reads
//! as one hit.

use crate::store::Tree;

/// Bytes of a record key; a census record's key adds the hit count after them.
const RECORD_KEY_BYTES: usize = 16;

/// The one census record (key, value) that holds the hits `entries` (each a record key
/// and one hit's JSON, in the order they came); `None` for no hits.
pub fn gather(entries: &[(Vec<u8>, Vec<u8>)]) -> Option<(Vec<u8>, Vec<u8>)> {
    let (newest, _) = entries.last()?;
    let count = u32::try_from(entries.len()).unwrap_or(u32::MAX);
    let mut key = Vec::with_capacity(newest.len() + 4);
    key.extend_from_slice(newest);
    key.extend_from_slice(&count.to_be_bytes());
    let mut value = Vec::with_capacity(entries.iter().map(|(_, hit)| hit.len() + 1).sum::<usize>() + 1);
    for (i, (_, hit)) in entries.iter().enumerate() {
        value.push(if i == 0 { b'[' } else { b',' });
        value.extend_from_slice(hit);
    }
    value.push(b']');
    Some((key, value))
}

/// How many hits the census record under `key` holds.
pub fn hits_in(key: &[u8]) -> u64 {
    key.get(RECORD_KEY_BYTES..RECORD_KEY_BYTES + 4)
        .and_then(|count| count.try_into().ok())
        .map_or(1, |count| u64::from(u32::from_be_bytes(count)))
}

/// How many records the store's record under `key` of `tree` counts as: a census record's
/// hits, one for any other record. Retention and the size limit count removals with it.
pub fn records_in(tree: Tree, key: &[u8]) -> u64 {
    if tree == Tree::Census {
        hits_in(key)
    } else {
        1
    }
}

/// The hits of a stored census record, each as its JSON; `None` when the value is not
/// JSON. A lone hit's record is one hit.
pub fn hits(value: &[u8]) -> Option<Vec<serde_json::Value>> {
    match serde_json::from_slice(value).ok()? {
        serde_json::Value::Array(hits) => Some(hits),
        hit => Some(vec![hit]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::records::record_key;

    #[test]
    fn a_round_of_hits_is_one_record_keyed_by_the_newest_and_counted_in_its_key() {
        let (first, second, third) = (record_key(10), record_key(11), record_key(12));
        let entries = [
            (first.to_vec(), br#"{"kind":"pageView","n":1}"#.to_vec()),
            (second.to_vec(), br#"{"kind":"pageView","n":2}"#.to_vec()),
            (third.to_vec(), br#"{"kind":"buttonClick","n":3}"#.to_vec()),
        ];
        let (key, value) = gather(&entries).expect("a record");
        assert_eq!(&key[..16], &third[..], "the newest hit's record key");
        assert_eq!(&key[16..], &[0, 0, 0, 3]);
        assert_eq!(hits_in(&key), 3);
        let hits = hits(&value).expect("JSON");
        let numbers: Vec<_> = hits.iter().map(|hit| hit["n"].as_u64()).collect();
        assert_eq!(numbers, [Some(1), Some(2), Some(3)], "in the order they came");
    }

    #[test]
    fn a_lone_hit_record_reads_as_one_hit_and_nothing_gathers_to_nothing() {
        assert_eq!(hits_in(&record_key(5)), 1);
        assert_eq!(records_in(Tree::Census, &[&record_key(5)[..], &[0, 0, 1, 0]].concat()), 256);
        assert_eq!(records_in(Tree::Events, &[&record_key(5)[..], &[0, 0, 1, 0]].concat()), 1);
        assert_eq!(hits(br#"{"kind":"pageView"}"#).expect("JSON").len(), 1);
        assert_eq!(hits(b"not json"), None);
        assert_eq!(gather(&[]), None);
        let (key, value) = gather(&[(record_key(7).to_vec(), br#"{"n":1}"#.to_vec())]).expect("a record");
        assert_eq!(hits_in(&key), 1);
        assert_eq!(hits(&value).expect("JSON"), [serde_json::json!({"n": 1})]);
    }
}
