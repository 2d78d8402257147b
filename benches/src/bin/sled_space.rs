//! `sled_space [N]`: the disk space sled uses for what it holds. Runs a fixed workload on
//! a `SledStore` in a fresh temporary folder: N (default 100,000) telemetry records of
//! 256 bytes, then removes the oldest 90 % of them in batches of 500 keys (as the
//! retention sweep does), then writes N × 90 % new records again (steady state: the
//! same live data, every record replaced once).
//!
//! At each stage it prints the bytes of the files in the folder, the live bytes (keys +
//! values held) and their ratio ("space amplification"), before and after a flush, and
//! after the database is closed and reopened (sled's recovery).
//!
//!   cargo run --release -p veranda-benches --bin sled_space

use std::path::{Path, PathBuf};
use std::sync::Arc;

use veranda_actors::store::{SledStore, Store, Tree};
use veranda_actors::telemetry::records::record_key;

/// Bytes of every record's value.
const VALUE_BYTES: usize = 256;
/// Bytes of every record's key.
const KEY_BYTES: usize = 16;
/// Keys removed per batch.
const BATCH: usize = 500;

/// The folder's size: the sum of its files' lengths.
fn disk_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .filter_map(Result::ok)
        .map(|entry| match entry.metadata() {
            Ok(meta) if meta.is_dir() => disk_bytes(&entry.path()),
            Ok(meta) => meta.len(),
            Err(_) => 0,
        })
        .sum()
}

/// Prints one stage's figures.
fn report(stage: &str, dir: &Path, live_records: usize) {
    let disk = disk_bytes(dir);
    let live = (live_records * (KEY_BYTES + VALUE_BYTES)) as u64;
    let ratio = if live == 0 { f64::NAN } else { disk as f64 / live as f64 };
    println!("{stage:<44} {disk:>12} {live:>12} {ratio:>8.2}");
}

/// Writes `count` records with keys from time `from` on; returns their keys.
async fn insert(store: &dyn Store, from: u64, count: usize) -> Vec<Vec<u8>> {
    let value = vec![0x5a; VALUE_BYTES];
    let mut keys = Vec::with_capacity(count);
    for i in 0..count {
        let key = record_key(from + i as u64).to_vec();
        if let Err(error) = store.put(Tree::Census, &key, &value).await {
            eprintln!("write failed: {error}");
            std::process::exit(1);
        }
        keys.push(key);
    }
    keys
}

async fn flush(store: &dyn Store) {
    if let Err(error) = store.flush().await {
        eprintln!("flush failed: {error}");
        std::process::exit(1);
    }
}

fn open(dir: &Path) -> Arc<SledStore> {
    match SledStore::open(dir) {
        Ok(store) => Arc::new(store),
        Err(error) => {
            eprintln!("cannot open the store: {error}");
            std::process::exit(1);
        }
    }
}

#[actix::main]
async fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let removed = n * 9 / 10;
    let dir: PathBuf = std::env::temp_dir().join(format!("veranda-sled-space-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    println!("{n} records of {KEY_BYTES} + {VALUE_BYTES} bytes in {}", dir.display());
    println!("{:<44} {:>12} {:>12} {:>8}", "stage", "disk bytes", "live bytes", "ratio");

    let store = open(&dir);
    let keys = insert(store.as_ref(), 1, n).await;
    report("1. inserted, before flush", &dir, n);
    flush(store.as_ref()).await;
    report("2. inserted, after flush", &dir, n);

    for batch in keys[..removed].chunks(BATCH) {
        if let Err(error) = store.delete_all(Tree::Census, batch).await {
            eprintln!("delete failed: {error}");
            std::process::exit(1);
        }
    }
    report("3. 90 % removed, before flush", &dir, n - removed);
    flush(store.as_ref()).await;
    report("4. 90 % removed, after flush", &dir, n - removed);
    drop(store);
    let store = open(&dir);
    flush(store.as_ref()).await;
    report("5. 90 % removed, closed and reopened", &dir, n - removed);

    insert(store.as_ref(), 1 + n as u64, removed).await;
    flush(store.as_ref()).await;
    report("6. as many written again, after flush", &dir, n);
    drop(store);
    let store = open(&dir);
    flush(store.as_ref()).await;
    report("7. written again, closed and reopened", &dir, n);
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
