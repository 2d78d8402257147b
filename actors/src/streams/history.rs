//! [`History`]: the latest events of one stream in memory, bounded by count and age, and
//! the resume rule: a client's `(epoch, offset)` gets exactly the events after it, or a
//! reset when they are no longer all kept.

use std::collections::VecDeque;
use std::sync::Arc;

use super::event::{ResetReason, StoredEvent};

/// What a reconnecting client gets.
#[derive(Debug, Clone, PartialEq)]
pub enum Resume {
    /// The events after the client's offset, in order (possibly none).
    Replay(Vec<Arc<StoredEvent>>),
    /// The client must start over.
    Reset(ResetReason),
}

/// The kept events of one stream.
#[derive(Debug)]
pub struct History {
    /// The current generation; changes when the history is lost.
    epoch: String,
    /// The offset of the latest event (0 before the first).
    head: u64,
    /// Kept events, oldest first, offsets contiguous.
    events: VecDeque<Arc<StoredEvent>>,
    /// Most events kept.
    max_events: usize,
    /// Oldest event age kept, in ms.
    max_age_ms: u64,
}

impl History {
    /// An empty history in a new epoch.
    pub fn fresh(epoch: String, max_events: usize, max_age_ms: u64) -> History {
        History { epoch, head: 0, events: VecDeque::new(), max_events: max_events.max(1), max_age_ms }
    }

    /// An empty history of `epoch` whose latest offset is `head` (the events before it are
    /// not kept here): a mirror of a shared stream whose events are all gone.
    pub fn starting_at(epoch: String, head: u64, max_events: usize, max_age_ms: u64) -> History {
        History { head, ..History::fresh(epoch, max_events, max_age_ms) }
    }

    /// A history restored from stored events of `epoch` (any order; gaps keep only the newest
    /// contiguous run). `None` when nothing usable remains: start a new epoch then.
    pub fn restore(
        epoch: String,
        mut stored: Vec<StoredEvent>,
        max_events: usize,
        max_age_ms: u64,
        now: u64,
    ) -> Option<History> {
        stored.retain(|e| e.epoch == epoch);
        stored.sort_by_key(|e| e.offset);
        let head = stored.last()?.offset;
        let mut history = History::fresh(epoch, max_events, max_age_ms);
        history.head = head;
        for event in stored.into_iter().rev() {
            let expected = history.events.front().map_or(head, |e| e.offset - 1);
            if event.offset != expected {
                break;
            }
            history.events.push_front(Arc::new(event));
        }
        history.trim(now);
        Some(history)
    }

    /// The current epoch.
    pub fn epoch(&self) -> &str {
        &self.epoch
    }

    /// The latest offset (0 before the first event).
    pub fn head(&self) -> u64 {
        self.head
    }

    /// How many events are kept.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether no event is kept.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Numbers `data` as the next event at `now`, keeps it, and returns it together with the
    /// offsets that fell out of the history.
    pub fn append(&mut self, data: serde_json::Value, now: u64) -> (Arc<StoredEvent>, Vec<u64>) {
        self.head += 1;
        let event = Arc::new(StoredEvent { epoch: self.epoch.clone(), offset: self.head, at: now, data });
        self.events.push_back(event.clone());
        let dropped = self.trim(now);
        (event, dropped)
    }

    /// Keeps `event`, numbered elsewhere (a shared stream), when it is the next one of this
    /// epoch; returns the offsets that fell out of the history, or the event back when it
    /// does not follow the head.
    pub fn push(&mut self, event: StoredEvent, now: u64) -> Result<(Arc<StoredEvent>, Vec<u64>), StoredEvent> {
        if event.epoch != self.epoch || event.offset != self.head + 1 {
            return Err(event);
        }
        self.head = event.offset;
        let event = Arc::new(event);
        self.events.push_back(event.clone());
        Ok((event, self.trim(now)))
    }

    /// Drops events beyond the count or older than the age limit; returns their offsets.
    pub fn trim(&mut self, now: u64) -> Vec<u64> {
        let mut dropped = Vec::new();
        let oldest_kept = now.saturating_sub(self.max_age_ms);
        while let Some(front) = self.events.front() {
            if self.events.len() <= self.max_events && front.at >= oldest_kept {
                break;
            }
            dropped.push(front.offset);
            self.events.pop_front();
        }
        dropped
    }

    /// The latest `limit` kept events, oldest first; the last one is at the head.
    pub fn latest(&self, limit: usize) -> Vec<Arc<StoredEvent>> {
        let skip = self.events.len().saturating_sub(limit);
        self.events.iter().skip(skip).cloned().collect()
    }

    /// What a client that last saw `offset` of `epoch` gets.
    pub fn resume(&self, epoch: &str, offset: u64) -> Resume {
        if epoch != self.epoch {
            return Resume::Reset(ResetReason::EpochChanged);
        }
        if offset > self.head {
            return Resume::Reset(ResetReason::AheadOfStream);
        }
        let first = self.events.front().map_or(self.head + 1, |e| e.offset);
        if offset + 1 < first {
            return Resume::Reset(ResetReason::BeyondHistory);
        }
        let skip = usize::try_from(offset + 1 - first).unwrap_or(usize::MAX);
        Resume::Replay(self.events.iter().skip(skip).cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn offsets(resume: Resume) -> Vec<u64> {
        match resume {
            Resume::Replay(events) => events.iter().map(|e| e.offset).collect(),
            Resume::Reset(reason) => panic!("expected a replay, got a reset: {reason:?}"),
        }
    }

    #[test]
    fn a_client_gets_exactly_the_events_after_its_offset() {
        let mut history = History::fresh("e".into(), 10, u64::MAX);
        for i in 0..5 {
            history.append(json!(i), 100);
        }
        assert_eq!(offsets(history.resume("e", 2)), vec![3, 4, 5]);
        assert_eq!(offsets(history.resume("e", 5)), Vec::<u64>::new());
        assert_eq!(offsets(history.resume("e", 0)), vec![1, 2, 3, 4, 5]);
    }

    #[test]
    fn the_latest_events_end_at_the_head() {
        let mut history = History::fresh("e".into(), 10, u64::MAX);
        assert!(history.latest(3).is_empty());
        for i in 0..5 {
            history.append(json!(i), 100);
        }
        let latest: Vec<u64> = history.latest(3).iter().map(|e| e.offset).collect();
        assert_eq!(latest, vec![3, 4, 5]);
        assert_eq!(history.latest(50).len(), 5);
        assert!(history.latest(0).is_empty());
    }

    #[test]
    fn gaps_beyond_the_history_other_epochs_and_future_offsets_reset() {
        let mut history = History::fresh("e".into(), 3, u64::MAX);
        for i in 0..6 {
            history.append(json!(i), 100);
        }
        assert_eq!(history.len(), 3);
        assert_eq!(offsets(history.resume("e", 3)), vec![4, 5, 6], "the oldest kept follows offset 3");
        assert_eq!(history.resume("e", 2), Resume::Reset(ResetReason::BeyondHistory));
        assert_eq!(history.resume("other", 5), Resume::Reset(ResetReason::EpochChanged));
        assert_eq!(history.resume("e", 7), Resume::Reset(ResetReason::AheadOfStream));
    }

    #[test]
    fn events_numbered_elsewhere_are_kept_only_when_they_follow_the_head() {
        let event = |epoch: &str, offset| StoredEvent { epoch: epoch.into(), offset, at: 10, data: json!(offset) };
        let mut history = History::starting_at("e".into(), 4, 2, u64::MAX);
        assert_eq!(history.resume("e", 3), Resume::Reset(ResetReason::BeyondHistory));
        assert!(history.push(event("e", 6), 10).is_err(), "a gap");
        assert!(history.push(event("x", 5), 10).is_err(), "another epoch");
        history.push(event("e", 5), 10).expect("the next one");
        let (_, dropped) = history.push(event("e", 6), 10).expect("the next one");
        assert!(dropped.is_empty());
        let (_, dropped) = history.push(event("e", 7), 10).expect("the next one");
        assert_eq!((dropped, history.head()), (vec![5], 7));
        assert_eq!(offsets(history.resume("e", 5)), vec![6, 7]);
    }

    #[test]
    fn old_events_age_out() {
        let mut history = History::fresh("e".into(), 100, 1_000);
        history.append(json!(1), 0);
        history.append(json!(2), 500);
        let (_, dropped) = history.append(json!(3), 1_200);
        assert_eq!(dropped, vec![1]);
        assert_eq!(history.resume("e", 0), Resume::Reset(ResetReason::BeyondHistory));
        assert_eq!(offsets(history.resume("e", 1)), vec![2, 3]);
    }

    #[test]
    fn restoring_keeps_the_newest_contiguous_run_of_the_epoch() {
        let event = |epoch: &str, offset| StoredEvent { epoch: epoch.into(), offset, at: 10, data: json!(offset) };
        let stored = vec![event("e", 7), event("e", 5), event("e", 8), event("e", 2), event("x", 9)];
        let history = History::restore("e".into(), stored, 100, u64::MAX, 20).expect("events remain");
        assert_eq!(history.head(), 8);
        assert_eq!(offsets(history.resume("e", 6)), vec![7, 8]);
        assert_eq!(history.resume("e", 4), Resume::Reset(ResetReason::BeyondHistory));
        assert!(History::restore("e".into(), vec![event("x", 1)], 100, u64::MAX, 20).is_none());
    }
}
