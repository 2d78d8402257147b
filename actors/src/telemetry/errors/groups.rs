//! Error groups (issues): every error with the same fingerprint counts into one group
//! with its first and last sighting.

use crate::tables::FastMap;

use super::fingerprint::fingerprint;
use super::report::ErrorReport;

/// Most groups kept; errors of further new fingerprints are stored but not grouped.
pub const MAX_GROUPS: usize = 10_000;

pub use crate::telemetry::stored::ErrorGroup;

/// Every group, by fingerprint.
#[derive(Debug, Default)]
pub struct ErrorGroups {
    /// Groups by fingerprint.
    groups: FastMap<String, ErrorGroup>,
}

impl ErrorGroups {
    /// Groups restored from the store.
    pub fn from_groups(groups: impl IntoIterator<Item = ErrorGroup>) -> ErrorGroups {
        ErrorGroups { groups: groups.into_iter().take(MAX_GROUPS).map(|g| (g.fingerprint.clone(), g)).collect() }
    }

    /// Counts `report` (its `count` times) into its group, creating it if new; returns the changed group,
    /// or `None` when the group table is full and the fingerprint is new.
    pub fn record(&mut self, report: &ErrorReport, now: u64) -> Option<&ErrorGroup> {
        let key = fingerprint(&report.message, &report.file, report.line, report.column);
        self.record_as(&key, report, now)
    }

    /// As [`ErrorGroups::record`], with the report's fingerprint already worked out. A
    /// group already there is counted in place; only a new one copies the fingerprint.
    pub fn record_as(&mut self, key: &str, report: &ErrorReport, now: u64) -> Option<&ErrorGroup> {
        if !self.groups.contains_key(key) {
            if self.groups.len() >= MAX_GROUPS {
                return None;
            }
            let group = ErrorGroup {
                fingerprint: key.to_owned(),
                message: report.message.clone(),
                file: report.file.clone(),
                line: report.line,
                column: report.column,
                last_url: String::new(),
                first_seen: now,
                last_seen: now,
                count: 0,
            };
            self.groups.insert(key.to_owned(), group);
        }
        let group = self.groups.get_mut(key)?;
        group.count = group.count.saturating_add(u64::from(report.count.max(1)));
        group.last_seen = now;
        group.last_url.clone_from(&report.url);
        Some(group)
    }

    /// The groups, most recently seen first.
    pub fn list(&self) -> Vec<ErrorGroup> {
        let mut list: Vec<ErrorGroup> = self.groups.values().cloned().collect();
        list.sort_by(|a, b| b.last_seen.cmp(&a.last_seen).then_with(|| a.fingerprint.cmp(&b.fingerprint)));
        list
    }

    /// The group of `fingerprint`.
    pub fn get(&self, fingerprint: &str) -> Option<&ErrorGroup> {
        self.groups.get(fingerprint)
    }

    /// How many groups there are.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether there are no groups.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(message: &str, line: u32) -> ErrorReport {
        ErrorReport {
            event: "error".into(),
            website_id: String::new(),
            template_id: String::new(),
            url: "/p".into(),
            user_agent: String::new(),
            app: String::new(),
            message: message.into(),
            stack: String::new(),
            file: "/a.js?v=1".into(),
            line: Some(line),
            column: Some(1),
            timestamp: None,
            page_load_id: None,
            count: 1,
        }
    }

    #[test]
    fn the_same_error_counts_into_one_group() {
        let mut groups = ErrorGroups::default();
        groups.record(&report("Item 1 missing", 4), 10);
        let group = groups.record(&report("Item 2 missing", 4), 20).cloned().expect("grouped");
        assert_eq!((group.count, group.first_seen, group.last_seen), (2, 10, 20));
        groups.record(&report("other", 4), 30);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups.list()[0].message, "other");
        let seen_thrice = ErrorReport { count: 3, ..report("Item 3 missing", 4) };
        assert_eq!(groups.record(&seen_thrice, 40).map(|g| g.count), Some(5), "a record seen three times counts three");
    }
}
