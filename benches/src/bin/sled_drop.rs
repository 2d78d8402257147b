//! `sled_drop [N]`: what dropping visitor sessions costs sled, record by record against a
//! whole tree at once. In a fresh folder under the system's temporary one (removed at the
//! end), with sled's cache at the default `store_cache_mb` (256 MiB), it writes N (default
//! 1,000,000) records shaped like stored visitor sessions (a key of the millisecond the
//! visitor came and a 22-character id, a 24-byte value) into each of two trees, in batches
//! of 1,000. Then it empties the first as the size limit drops sessions, oldest first: read
//! 1,000 in key order, remove them in one batch, again until none is left; and the second
//! with `Db::drop_tree`. It prints the time each stage took and per record.
//!
//!   cargo run --release -p veranda-benches --bin sled_drop
//!   cargo run --release -p veranda-benches --bin sled_drop -- 200000

use std::time::{Duration, Instant};

/// Records written, read or removed per batch.
const BATCH: usize = 1_000;
/// Bytes of a record's value (a stored session is a few varints).
const VALUE_BYTES: usize = 24;
/// sled's cache, as `store_cache_mb` sets it by default.
const CACHE_BYTES: u64 = 256 * 1024 * 1024;
/// The millisecond the first visitor came.
const FIRST_MS: u64 = 1_796_000_000_000;

/// The key of the `n`th visitor's session: the millisecond it came (8 bytes, big-endian),
/// then its id.
fn key(n: u64) -> Vec<u8> {
    let came = FIRST_MS + n / 20;
    [&came.to_be_bytes()[..], format!("{:022x}", n.wrapping_mul(0x9e37_79b9_7f4a_7c15)).as_bytes()].concat()
}

fn fill(tree: &sled::Tree, records: u64) -> sled::Result<Duration> {
    let started = Instant::now();
    let value = [7u8; VALUE_BYTES];
    let mut n = 0;
    while n < records {
        let mut batch = sled::Batch::default();
        for k in n..(n + BATCH as u64).min(records) {
            batch.insert(key(k), &value[..]);
        }
        tree.apply_batch(batch)?;
        n += BATCH as u64;
    }
    Ok(started.elapsed())
}

/// Reads the first records in key order and removes them, a batch at a time, until none is left.
fn remove_oldest_first(tree: &sled::Tree) -> sled::Result<Duration> {
    let started = Instant::now();
    loop {
        let keys = tree.iter().keys().take(BATCH).collect::<sled::Result<Vec<_>>>()?;
        if keys.is_empty() {
            return Ok(started.elapsed());
        }
        let mut batch = sled::Batch::default();
        for key in keys {
            batch.remove(key);
        }
        tree.apply_batch(batch)?;
    }
}

fn line(stage: &str, took: Duration, records: u64) {
    let per_record = took.as_secs_f64() * 1e6 / records.max(1) as f64;
    println!("{stage:<34} {:>10.3} s {per_record:>9.3} µs a record", took.as_secs_f64());
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let records: u64 = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|_| format!("sled_drop: N must be a whole number, not {n:?}"))?,
        None => 1_000_000,
    };
    let dir = std::env::temp_dir().join(format!("veranda-sled-drop-{}", std::process::id()));
    let db = sled::Config::new().path(&dir).cache_capacity(CACHE_BYTES).open()?;
    let by_record = db.open_tree("sessions_by_record")?;
    let whole = db.open_tree("sessions_whole")?;
    println!("sled_drop: {records} records of {VALUE_BYTES} bytes a tree, batches of {BATCH}");
    line("write, first tree", fill(&by_record, records)?, records);
    line("write, second tree", fill(&whole, records)?, records);
    line("read and remove, oldest first", remove_oldest_first(&by_record)?, records);
    let started = Instant::now();
    db.drop_tree("sessions_whole")?;
    line("drop_tree", started.elapsed(), records);
    drop((by_record, whole, db));
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
