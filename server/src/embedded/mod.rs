//! Files built into the binary, so that `veranda serve` run from any directory serves the demo
//! with its scripts, and `veranda init` needs nothing beside the binary: the built client
//! (`client/dist`), the demo site (`config/sites/demo`) and the starter site
//! (`config/starter`). Release builds carry the files; debug builds read them from the source
//! tree at run time (rust-embed's two modes; see docs/deploy.md).
//!
//! - [`bundles`]: the three embedded folders and writing one out to a directory.
//! - [`site`]: the site directory `veranda serve` loads: a path on disk, or the embedded
//!   demo written to a temporary folder.

pub mod bundles;
pub mod site;

pub use bundles::{write_tree, ClientBuild, DemoSite, StarterSite};
pub use site::ServedSite;
