//! Sharding of the hot telemetry actors: the visitor sessions and the performance
//! collector each run as N shards, one actor on its own arbiter (thread) per shard, so a
//! burst of page views or performance records is spread over the cores instead of queueing
//! behind one actor.
//!
//! A record goes to the shard its key hashes to ([`shard_of`]: the visitor id, or the page
//! load id), so one visitor's or one page load's records always meet in one shard. N is
//! `[telemetry] shards` ([`shard_count`]: 0 means the number of available cores, at least
//! two), and each shard gets its share of the in-memory bounds ([`share`]), so the shards
//! together hold no more than the one table did.

use std::hash::{Hash, Hasher};
use std::num::NonZeroUsize;
use std::sync::Arc;

use actix::{Arbiter, ArbiterHandle};

/// Most shards of one actor.
pub const MAX_SHARDS: usize = 64;

/// The number of shards for the setting `configured`: 0 is the number of available
/// cores (at least 2); any value is kept within 1..=[`MAX_SHARDS`].
pub fn shard_count(configured: usize) -> usize {
    if configured == 0 {
        std::thread::available_parallelism().map_or(2, NonZeroUsize::get).clamp(2, MAX_SHARDS)
    } else {
        configured.min(MAX_SHARDS)
    }
}

/// The shard of `key` among `shards`; the same key always gives the same shard.
pub fn shard_of(key: &[u8], shards: usize) -> usize {
    if shards <= 1 {
        return 0;
    }
    // `DefaultHasher::new` has fixed keys: the same key hashes alike in every call,
    // unlike a `RandomState`.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut hasher);
    (hasher.finish() % shards as u64) as usize
}

/// The arbiters (threads) shards run on. Dropping the last owner stops them: an arbiter
/// keeps a handle to itself, so one that is only dropped never ends, and a server
/// dropped without its process ending (a test's) would leave its shards' threads and
/// timers running, with the store and writer they hold.
pub struct Arbiters(Vec<Arbiter>);

impl Drop for Arbiters {
    fn drop(&mut self) {
        for arbiter in &self.0 {
            arbiter.stop();
        }
    }
}

/// Starts `count` shards, each by `start` on an arbiter (thread) of its own, and returns
/// them with the arbiters, which must be kept for as long as the shards are.
pub fn start_on_arbiters<S>(count: usize, mut start: impl FnMut(&ArbiterHandle) -> S) -> (Arc<[S]>, Arc<Arbiters>) {
    let mut shards = Vec::with_capacity(count);
    let mut arbiters = Vec::with_capacity(count);
    for _ in 0..count {
        let arbiter = Arbiter::new();
        shards.push(start(&arbiter.handle()));
        arbiters.push(arbiter);
    }
    (shards.into(), Arc::new(Arbiters(arbiters)))
}

/// One shard's share of a bound of `total` among `shards` (at least 1), so that the
/// shards' bounds add up to no more than `total` (unless `total` is below `shards`).
pub fn share(total: usize, shards: usize) -> usize {
    (total / shards.max(1)).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kernel's id of the calling thread (`/proc/thread-self` is `<pid>/task/<tid>`).
    fn thread_id() -> String {
        let link = std::fs::read_link("/proc/thread-self").expect("/proc/thread-self");
        link.file_name().expect("a thread id").to_string_lossy().into_owned()
    }

    #[test]
    fn the_arbiters_threads_end_when_their_last_owner_is_dropped() {
        let (sent, threads) = std::sync::mpsc::channel();
        let system = actix::System::new();
        let owners = system.block_on(async move {
            start_on_arbiters(3, |arbiter| {
                let sent = sent.clone();
                arbiter.spawn_fn(move || sent.send(thread_id()).expect("sent"));
            })
        });
        let ids: Vec<String> = (0..3).map(|_| threads.recv().expect("each arbiter runs")).collect();
        let alive = |id: &String| std::path::Path::new("/proc/self/task").join(id).exists();
        assert!(ids.iter().all(alive), "the arbiters run while owned");
        let also_owned = owners.1.clone();
        drop(owners);
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(ids.iter().all(alive), "a second owner keeps them running");
        drop(also_owned);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while ids.iter().any(alive) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let left: Vec<&String> = ids.iter().filter(|id| alive(id)).collect();
        assert!(left.is_empty(), "threads {left:?} still run after the last owner was dropped");
    }

    #[test]
    fn a_key_always_lands_on_one_shard_and_keys_spread_over_all() {
        let first: Vec<usize> = (0..1000).map(|n| shard_of(format!("v{n}").as_bytes(), 8)).collect();
        let again: Vec<usize> = (0..1000).map(|n| shard_of(format!("v{n}").as_bytes(), 8)).collect();
        assert_eq!(first, again);
        for shard in 0..8 {
            let count = first.iter().filter(|s| **s == shard).count();
            assert!((60..=190).contains(&count), "shard {shard} holds {count} of 1000 keys");
        }
        assert_eq!(shard_of(b"anything", 1), 0);
    }

    #[test]
    fn the_shard_count_defaults_to_the_cores_and_stays_bounded() {
        let cores = std::thread::available_parallelism().map_or(2, NonZeroUsize::get);
        assert_eq!(shard_count(0), cores.clamp(2, 64));
        assert_eq!(shard_count(1), 1);
        assert_eq!(shard_count(5), 5);
        assert_eq!(shard_count(1000), 64);
    }

    #[test]
    fn shares_add_up_to_no_more_than_the_total() {
        assert_eq!(share(200_000, 4), 50_000);
        assert_eq!(share(10, 4), 2);
        assert!(share(10, 4) * 4 <= 10);
        assert_eq!(share(2, 4), 1, "a shard holds at least one entry");
    }
}
