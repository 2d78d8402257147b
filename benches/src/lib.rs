//! Benchmarks live in benches/benches/; the load clients in src/bin/ share [`live`], and the
//! open-loop client's arithmetic is in [`open_loop`].

pub mod live;
pub mod open_loop;
