//! How census hits are stored: the hits one round of the
//! [`TelemetryWriter`](super::TelemetryWriter) gathers go into the census tree a few
//! records for all of them, not a record each.
//!
//! A hit is the busiest record there is (every page view), and each store record costs an
//! insert, its share of a node split and its log entry, whatever its size: a round of
//! hits in records of up to [`RECORD_BYTES`] costs the store an insert per 6 KiB of hits.
//! A stored census record is
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
//!
//! A round's hits fill records of at most [`RECORD_BYTES`] each (a hit larger than that is
//! a record alone): sled splits a leaf past 16 entries whatever their size, and writes a
//! node over a quarter of its 512 KiB log segment as a file of its own, so a leaf of
//! records this size stays in the log.

use crate::store::Tree;

/// Bytes of a record key; a census record's key adds the hit count after them.
const RECORD_KEY_BYTES: usize = 16;

/// Most bytes of the hits one census record gathers (unless one hit is larger alone).
pub const RECORD_BYTES: usize = 6 * 1024;

/// The census records (key, value) that hold the hits `entries` (each a record key and
/// one hit's JSON, in the order they came), in order, each of at most [`RECORD_BYTES`] of
/// hits; none for no hits.
pub fn gather(entries: &[(Vec<u8>, Vec<u8>)]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut records = Vec::new();
    let mut start = 0;
    while start < entries.len() {
        let mut end = start + 1;
        let mut bytes = entries[start].1.len();
        while end < entries.len() && bytes + entries[end].1.len() <= RECORD_BYTES {
            bytes += entries[end].1.len();
            end += 1;
        }
        records.push(record(&entries[start..end]));
        start = end;
    }
    records
}

/// One census record of `hits` (not empty).
fn record(hits: &[(Vec<u8>, Vec<u8>)]) -> (Vec<u8>, Vec<u8>) {
    let newest = hits.last().map(|(key, _)| key.as_slice()).unwrap_or_default();
    let count = u32::try_from(hits.len()).unwrap_or(u32::MAX);
    let mut key = Vec::with_capacity(newest.len() + 4);
    key.extend_from_slice(newest);
    key.extend_from_slice(&count.to_be_bytes());
    let mut value = Vec::with_capacity(hits.iter().map(|(_, hit)| hit.len() + 1).sum::<usize>() + 1);
    for (i, (_, hit)) in hits.iter().enumerate() {
        value.push(if i == 0 { b'[' } else { b',' });
        value.extend_from_slice(hit);
    }
    value.push(b']');
    (key, value)
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
        let records = gather(&entries);
        assert_eq!(records.len(), 1);
        let (key, value) = &records[0];
        assert_eq!(&key[..16], &third[..], "the newest hit's record key");
        assert_eq!(&key[16..], &[0, 0, 0, 3]);
        assert_eq!(hits_in(key), 3);
        let hits = hits(value).expect("JSON");
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
        assert!(gather(&[]).is_empty());
        let records = gather(&[(record_key(7).to_vec(), br#"{"n":1}"#.to_vec())]);
        assert_eq!(records.len(), 1);
        assert_eq!(hits_in(&records[0].0), 1);
        assert_eq!(hits(&records[0].1).expect("JSON"), [serde_json::json!({"n": 1})]);
    }

    #[test]
    fn a_record_holds_at_most_6_kib_of_hits_and_a_larger_hit_is_a_record_alone() {
        let hit = |n: usize, bytes: usize| {
            let pad = "x".repeat(bytes - format!(r#"{{"n":{n},"p":""}}"#).len());
            (record_key(n as u64).to_vec(), format!(r#"{{"n":{n},"p":"{pad}"}}"#).into_bytes())
        };
        // 2 KiB hits: three fill a record; a 7 KiB hit goes alone.
        let entries: Vec<_> = (0..7).map(|n| hit(n, if n == 4 { 7 * 1024 } else { 2048 })).collect();
        let records = gather(&entries);
        let counts: Vec<u64> = records.iter().map(|(key, _)| hits_in(key)).collect();
        assert_eq!(counts, [3, 1, 1, 2], "hits 0-2, 3, 4 (7 KiB), 5-6");
        for (key, value) in &records {
            let numbers: Vec<u64> = hits(value).expect("JSON").iter().filter_map(|hit| hit["n"].as_u64()).collect();
            assert_eq!(&key[..16], &entries[*numbers.last().expect("a hit") as usize].0[..], "keyed by its newest");
        }
        let all: Vec<u64> = records
            .iter()
            .flat_map(|(_, value)| hits(value).expect("JSON"))
            .filter_map(|hit| hit["n"].as_u64())
            .collect();
        assert_eq!(all, [0, 1, 2, 3, 4, 5, 6], "every hit, in order");
    }
}
