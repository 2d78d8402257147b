//! Store micro-benchmarks: durable puts with 1, 16 and 64 concurrent writers through
//! the group-committing `SledStore`, against a baseline of one flush per write on the
//! same sled version in the same run; and telemetry puts.
//!
//! Each measured "iteration" is one write; with W writers every writer does 1/W of
//! them concurrently, so the reported time is wall time per write (lower is better).
//! Run: `cargo bench -p veranda-benches --bench store`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use veranda_actors::store::{SledStore, Store, Tree};

/// Concurrent writer counts measured.
const WRITERS: [u64; 3] = [1, 16, 64];

/// A fresh key for every write, so no write overwrites another.
fn next_key(counter: &AtomicU64) -> [u8; 8] {
    counter.fetch_add(1, Ordering::Relaxed).to_be_bytes()
}

/// Runs `iters` writes spread over `writers` tasks; returns wall time per `iters` writes.
fn run_concurrently<F, Fut>(runtime: &tokio::runtime::Runtime, iters: u64, writers: u64, write: F) -> Duration
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let each = iters.div_ceil(writers).max(1);
    let write = Arc::new(write);
    let started = Instant::now();
    runtime.block_on(async {
        let tasks: Vec<_> = (0..writers)
            .map(|_| {
                let write = write.clone();
                tokio::spawn(async move {
                    for _ in 0..each {
                        write().await;
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.expect("writer task");
        }
    });
    // Scale to exactly `iters` writes: the writers may have done a few more.
    started.elapsed().mul_f64(iters as f64 / (each * writers) as f64)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime")
}

fn durable_put(c: &mut Criterion) {
    let runtime = runtime();
    let value = [7u8; 256];
    let mut group = c.benchmark_group("durable_put");
    group.throughput(Throughput::Elements(1));

    let dir = tempfile::tempdir().expect("temp dir");
    let store = Arc::new(SledStore::open(dir.path()).expect("open store"));
    let keys = Arc::new(AtomicU64::new(0));
    for writers in WRITERS {
        group.bench_function(BenchmarkId::new("group_commit", writers), |b| {
            b.iter_custom(|iters| {
                let (store, keys) = (store.clone(), keys.clone());
                run_concurrently(&runtime, iters, writers, move || {
                    let (store, keys) = (store.clone(), keys.clone());
                    async move {
                        let key = next_key(&keys);
                        store.put(Tree::Orders, &key, &value).await.expect("durable put");
                    }
                })
            })
        });
    }

    // Baseline: insert then one flush per write, as the store did before group commit.
    let base_dir = tempfile::tempdir().expect("temp dir");
    let db = sled::Config::new().path(base_dir.path()).flush_every_ms(None).open().expect("open sled");
    let tree = db.open_tree("orders").expect("open tree");
    for writers in WRITERS {
        group.bench_function(BenchmarkId::new("flush_per_write", writers), |b| {
            b.iter_custom(|iters| {
                let (db, tree, keys) = (db.clone(), tree.clone(), keys.clone());
                run_concurrently(&runtime, iters, writers, move || {
                    let (db, tree, keys) = (db.clone(), tree.clone(), keys.clone());
                    async move {
                        tree.insert(next_key(&keys), &value[..]).expect("insert");
                        // Not `flush_async`: concurrent `flush_async` calls can occupy every
                        // thread of sled's IO pool and deadlock (they did here with 16 writers).
                        tokio::task::spawn_blocking(move || db.flush()).await.expect("join").expect("flush");
                    }
                })
            })
        });
    }
    group.finish();
}

fn telemetry_put(c: &mut Criterion) {
    let runtime = runtime();
    let value = [7u8; 256];
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SledStore::open(dir.path()).expect("open store");
    let keys = AtomicU64::new(0);
    let mut group = c.benchmark_group("telemetry_put");
    group.throughput(Throughput::Elements(1));
    group.bench_function("one_writer", |b| {
        b.iter(|| {
            let key = next_key(&keys);
            runtime.block_on(store.put(Tree::Census, &key, &value)).expect("telemetry put")
        })
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default().sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = durable_put, telemetry_put
}
criterion_main!(benches);
