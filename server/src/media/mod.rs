//! Site images resized for the size ladder of 001 §9.
//!
//! # Layout
//!
//! - [`ladder`]: the ladder widths and the `?format=750w` query that asks for one.
//! - [`resize`]: decoding under limits, resizing and re-encoding (blocking, CPU-bound).
//! - [`cache`]: the on-disk cache of resized variants, bounded in total size.
//! - [`variants`]: ties them together for the route — one resize per variant, a bounded
//!   number of resizes at a time, all of it off the async threads.
//! - [`stream`]: answering with a file read piece by piece, with single byte ranges.
//! - [`digest`]: originals' content hashes, remembered per file version (bounded).

pub mod cache;
pub mod digest;
pub mod ladder;
pub mod resize;
pub mod stream;
pub mod variants;

pub use ladder::{RequestedSize, SizeError, SIZE_LADDER};
pub use resize::ResizeError;
pub use variants::{ImageVariants, Variant, VariantError};
