//! One round of the [`TelemetryWriter`](super::TelemetryWriter): every job waiting,
//! gathered tree by tree, then written a few entries per store call. While the writer keeps
//! up it yields the CPU between calls, so a request thread woken up on its core waits less.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Write, WRITER_QUEUE_JOBS};
use crate::store::{Entries, Store, Tree};
use crate::telemetry::census;
use crate::telemetry::metrics::{self, Queue};

/// The writes of one round, by tree in the order the trees first came, each tree's in
/// the order they came. A round's census hits are stored as a few records ([`census`]).
pub(super) struct Round {
    trees: Vec<(Tree, Entries)>,
    /// Jobs queued and not yet written: while few wait, the writer yields the CPU between
    /// chunks of a round.
    depth: Arc<AtomicUsize>,
    /// Emptied lists of earlier rounds, kept allocated for the next ones (a busy writer
    /// would otherwise grow a fresh list from nothing every round).
    spare: Vec<Entries>,
}

/// Entries written by one store call; the writer may yield the CPU between two calls.
const ENTRIES_PER_PUT: usize = 8;
/// How long the writer works before it yields the CPU. A round of thousands (the visitor
/// sessions' batch) takes milliseconds, and the kernel lets a running thread finish its
/// time slice: a request thread woken up on the same core waits that out, the slow tail
/// of the ingest routes. A yield offers the core to it sooner (the kernel still decides:
/// `docs/telemetry.md`, "The writer gives way to requests", has what it changed).
const YIELD_EVERY: Duration = Duration::from_micros(250);
/// The writer yields only while fewer jobs than this wait: one that falls behind (a
/// saturated core) keeps its full share of the CPU for the rest of its queue. What this
/// costs at saturation, and why it stays: `docs/telemetry.md`.
const YIELD_WHILE_FEWER_JOBS: usize = WRITER_QUEUE_JOBS / 4;

/// Longest emptied list kept for the next rounds (a round of the visitor sessions' batch
/// writes thousands); a longer one (a burst) is freed.
const SPARE_ENTRIES: usize = 8192;

impl Round {
    /// An empty round of a writer whose queue holds `depth` jobs.
    pub(super) fn new(depth: Arc<AtomicUsize>) -> Round {
        Round { trees: Vec::new(), depth, spare: Vec::new() }
    }

    /// Adds a job's writes.
    pub(super) fn add(&mut self, writes: Vec<Write>) {
        // A job's writes are mostly of one tree (a batch of sessions, of error records).
        if let Some(first) = writes.first() {
            let room = writes.len();
            self.entries(first.tree).reserve(room);
        }
        for w in writes {
            self.entries(w.tree).push((w.key, w.value));
        }
    }

    /// The round's list for `tree`, added (a spare one) when the tree is new to the round.
    fn entries(&mut self, tree: Tree) -> &mut Entries {
        let at = match self.trees.iter().position(|(t, _)| *t == tree) {
            Some(at) => at,
            None => {
                self.trees.push((tree, self.spare.pop().unwrap_or_default()));
                self.trees.len() - 1
            }
        };
        &mut self.trees[at].1
    }

    /// Writes everything gathered, tree by tree, and empties the round; returns whether
    /// every write succeeded.
    pub(super) fn write(&mut self, runtime: &tokio::runtime::Runtime, store: &dyn Store) -> bool {
        if self.trees.is_empty() {
            return true;
        }
        let started = Instant::now();
        let mut since_yield = started;
        let written = runtime.block_on(async {
            let mut written = true;
            for (tree, entries) in &self.trees {
                let gathered;
                let entries = match tree {
                    Tree::Census => {
                        gathered = census::gather(entries);
                        &gathered
                    }
                    _ => entries,
                };
                for chunk in entries.chunks(ENTRIES_PER_PUT) {
                    if let Err(error) = store.put_all(*tree, chunk).await {
                        // The tree's later writes are not tried, as for one call.
                        tracing::warn!(%error, tree = tree.name(), "telemetry write failed");
                        written = false;
                        break;
                    }
                    if since_yield.elapsed() >= YIELD_EVERY
                        && self.depth.load(Ordering::Relaxed) < YIELD_WHILE_FEWER_JOBS
                    {
                        std::thread::yield_now();
                        since_yield = Instant::now();
                    }
                }
            }
            written
        });
        for (_, mut entries) in self.trees.drain(..) {
            if entries.capacity() <= SPARE_ENTRIES {
                entries.clear();
                self.spare.push(entries);
            }
        }
        metrics::flush_duration(Queue::Writer, started.elapsed());
        written
    }
}
