//! How error records are stored: up to [`RECORDS_PER_ENTRY`] records of one interval
//! under one key, as a JSON array in arrival order. The first element is a whole record
//! (its arrival time `at`, its group's `fingerprint`, and the fields of
//! [`ErrorReport`]); each later element has `at` and only the fields whose value differs
//! from the record before it. An error storm is mostly one error on one page, so its
//! records differ in little more than their page load and time: stored this way they cost
//! the store tens of bytes each instead of the whole stack, message and browser again.
//!
//! [`decode_entry`] gives the records back whole.
//!
//! [`ErrorReport`]: super::ErrorReport

use std::sync::Arc;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use super::report::ErrorReport;

/// One accepted record, as the error list shows it and as it is stored.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct RecentError {
    /// When it arrived (unix ms).
    pub at: u64,
    /// The fingerprint of its group.
    pub fingerprint: String,
    /// The record.
    #[serde(flatten)]
    pub report: ErrorReport,
}

/// Most records stored under one key: the records of an interval are stored in entries of
/// this many, so a storm costs the store one insert per entry, not per record.
pub const RECORDS_PER_ENTRY: usize = 64;

/// One entry's records, serialised as the module says.
pub struct Entry<'a>(pub &'a [Arc<RecentError>]);

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        let mut previous: Option<&RecentError> = None;
        for record in self.0 {
            seq.serialize_element(&Delta { record, previous })?;
            previous = Some(record);
        }
        seq.end()
    }
}

/// An entry being filled as records are accepted: each record is encoded as it comes (against
/// the one before it), so that handing an interval's records to the writer takes finished
/// bytes instead of encoding thousands of records at once on a thread that may share the
/// request threads' core. The bytes are those of [`Entry`] over the same records.
#[derive(Debug, Default)]
pub struct EntryBuilder {
    /// `[` and the records so far, without the closing `]`.
    bytes: Vec<u8>,
    /// Records in it.
    records: usize,
    /// The first record's arrival (unix ms), which keys the entry.
    first_at: u64,
    /// The last record, which the next one is encoded against.
    previous: Option<Arc<RecentError>>,
}

/// A finished entry: its records' arrival of the first, how many, and its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedEntry {
    /// The first record's arrival (unix ms).
    pub first_at: u64,
    /// Records in it.
    pub records: usize,
    /// The entry as stored (a JSON array, see the module).
    pub bytes: Vec<u8>,
}

impl EntryBuilder {
    /// Adds `record`; false (and nothing added) if it cannot be encoded.
    pub fn push(&mut self, record: &Arc<RecentError>) -> bool {
        let mark = self.bytes.len();
        if self.records == 0 {
            self.bytes.push(b'[');
            self.first_at = record.at;
        } else {
            self.bytes.push(b',');
        }
        let delta = Delta { record, previous: self.previous.as_deref() };
        if serde_json::to_writer(&mut self.bytes, &delta).is_err() {
            self.bytes.truncate(mark);
            return false;
        }
        self.records += 1;
        self.previous = Some(record.clone());
        true
    }

    /// Whether it holds [`RECORDS_PER_ENTRY`] records.
    pub fn is_full(&self) -> bool {
        self.records >= RECORDS_PER_ENTRY
    }

    /// The entry so far, finished, leaving this one empty; `None` when it holds nothing.
    pub fn seal(&mut self) -> Option<SealedEntry> {
        if self.records == 0 {
            return None;
        }
        let mut entry = std::mem::take(self);
        entry.bytes.push(b']');
        Some(SealedEntry { first_at: entry.first_at, records: entry.records, bytes: entry.bytes })
    }
}

/// A record with only what changed since `previous` (everything when there is none).
struct Delta<'a> {
    record: &'a RecentError,
    previous: Option<&'a RecentError>,
}

impl Serialize for Delta<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (r, p) = (self.record, self.previous);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("at", &r.at)?;
        // Each field, when the record before had another value (or there is none).
        macro_rules! changed {
            ($name:literal, $($field:tt)+) => {
                if p.is_none_or(|p| p.$($field)+ != r.$($field)+) {
                    map.serialize_entry($name, &r.$($field)+)?;
                }
            };
        }
        changed!("fingerprint", fingerprint);
        changed!("event", report.event);
        changed!("websiteId", report.website_id);
        changed!("templateId", report.template_id);
        changed!("url", report.url);
        changed!("userAgent", report.user_agent);
        changed!("app", report.app);
        changed!("message", report.message);
        changed!("stack", report.stack);
        changed!("file", report.file);
        changed!("line", report.line);
        changed!("column", report.column);
        changed!("timestamp", report.timestamp);
        changed!("pageLoadId", report.page_load_id);
        changed!("count", report.count);
        map.end()
    }
}

/// The records of a stored entry, whole, in arrival order.
pub fn decode_entry(value: &[u8]) -> Result<Vec<RecentError>, serde_json::Error> {
    let elements: Vec<serde_json::Map<String, serde_json::Value>> = serde_json::from_slice(value)?;
    let mut whole = serde_json::Map::new();
    elements
        .into_iter()
        .map(|changes| {
            whole.extend(changes);
            serde_json::from_value(serde_json::Value::Object(whole.clone()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::telemetry::errors::report::sample_report;

    fn record(at: u64, message: &str, edit: impl FnOnce(&mut RecentError)) -> Arc<RecentError> {
        let mut r = RecentError { at, fingerprint: format!("print of {message}"), report: sample_report(message) };
        edit(&mut r);
        Arc::new(r)
    }

    #[test]
    fn an_entry_gives_back_every_record_whole() {
        let records = vec![
            record(1, "boom", |r| r.report.stack = "Error: boom\n    at a.js:1:2".into()),
            record(2, "boom", |r| r.report.stack = "Error: boom\n    at a.js:1:2".into()),
            record(2, "bang", |r| {
                r.report.line = None;
                r.report.page_load_id = Some("load-1".into());
                r.report.count = 4;
            }),
            // Back to values the first record had, and a field back to null.
            record(3, "boom", |r| r.report.timestamp = Some(17)),
            record(3, "boom", |r| r.report.user_agent = "Firefox".into()),
        ];
        let bytes = serde_json::to_vec(&Entry(&records)).expect("serialises");
        let back = decode_entry(&bytes).expect("decodes");
        let expected: Vec<RecentError> = records.iter().map(|r| (**r).clone()).collect();
        assert_eq!(back, expected);
    }

    #[test]
    fn a_repeated_record_stores_only_what_changed() {
        let stack = format!("Error: boom\n{}", "    at render (https://s.example/app.js:412:17)\n".repeat(20));
        let records: Vec<Arc<RecentError>> = (0..RECORDS_PER_ENTRY)
            .map(|n| {
                record(1_700_000_000_000 + n as u64, "boom", |r| {
                    r.report.stack = stack.clone();
                    r.report.page_load_id = Some(format!("load-{n}"));
                })
            })
            .collect();
        let bytes = serde_json::to_vec(&Entry(&records)).expect("serialises");
        let elements: Vec<serde_json::Value> = serde_json::from_slice(&bytes).expect("an array");
        assert_eq!(elements.len(), RECORDS_PER_ENTRY);
        assert_eq!(
            elements[1],
            serde_json::json!({ "at": 1_700_000_000_001u64, "pageLoadId": "load-1" }),
            "a repeat holds its time and page load"
        );
        let whole = serde_json::to_vec(&*records[0]).expect("serialises").len();
        assert!(
            bytes.len() * 10 < whole * RECORDS_PER_ENTRY,
            "{} bytes for {RECORDS_PER_ENTRY} records of {whole}",
            bytes.len()
        );
        assert_eq!(decode_entry(&bytes).expect("decodes")[RECORDS_PER_ENTRY - 1], *records[RECORDS_PER_ENTRY - 1]);
    }

    #[test]
    fn an_entry_built_record_by_record_is_the_entry_of_those_records() {
        let records: Vec<Arc<RecentError>> = (0..RECORDS_PER_ENTRY as u64 + 3)
            .map(|n| record(100 + n, if n % 3 == 0 { "boom" } else { "bang" }, |r| r.report.count = n as u32))
            .collect();
        let mut builder = EntryBuilder::default();
        assert_eq!(builder.seal(), None, "an empty builder has no entry");
        let mut sealed = Vec::new();
        for r in &records {
            assert!(builder.push(r));
            if builder.is_full() {
                sealed.extend(builder.seal());
            }
        }
        sealed.extend(builder.seal());
        assert_eq!(sealed.len(), 2);
        let (full, rest) = records.split_at(RECORDS_PER_ENTRY);
        assert_eq!((sealed[0].first_at, sealed[0].records), (100, RECORDS_PER_ENTRY));
        assert_eq!(sealed[0].bytes, serde_json::to_vec(&Entry(full)).expect("serialises"));
        assert_eq!((sealed[1].first_at, sealed[1].records), (100 + RECORDS_PER_ENTRY as u64, 3));
        assert_eq!(sealed[1].bytes, serde_json::to_vec(&Entry(rest)).expect("serialises"), "a new entry starts whole");
        let back = decode_entry(&sealed[1].bytes).expect("decodes");
        assert_eq!(back, rest.iter().map(|r| (**r).clone()).collect::<Vec<_>>());
    }

    #[test]
    fn a_damaged_entry_is_an_error_not_a_panic() {
        for bad in [&b"{}"[..], b"[1]", b"[{\"at\":1}]", b"[{\"at\":\"x\",\"message\":\"m\"}]", b"\xff"] {
            assert!(decode_entry(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}
