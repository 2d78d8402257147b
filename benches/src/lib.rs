//! Benchmarks live in benches/benches/; the load clients in src/bin/ share [`live`].

pub mod live;
