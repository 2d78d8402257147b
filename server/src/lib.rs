//! # Veranda server
//!
//! Serves published sites and answers every call their pages make.
//!
//! ## Layout
//!
//! - [`cli`], [`settings`], [`telemetry`]: the command line, configuration and logging.
//! - [`startup`]: loads the site, opens the store, binds the public and ops listeners.
//! - [`edge`]: what every handler takes for granted: the crumb check, bounded bodies,
//!   the 405 answer and no-store answers.
//! - [`services`]: the running parts (the live site, actors, limiters), started and
//!   stopped in one place.
//! - [`routes`]: the public route table, one module per area: handlers only.
//! - [`pages`]: answering with a site page: the page a path names, not-found, password
//!   pages' gate, page crumbs, HTML responses.
//! - [`page_cache`]: pages rendered once for every visitor they are the same for.
//! - [`compression`]: brotli and gzip for pages and the built client.
//! - [`render`]: server-side HTML of published pages.
//! - [`media`]: site images resized for the size ladder and cached on disk.
//! - [`page_context`]: the page context embedded in every page.
//! - [`query`]: query-string encoding, for the renderer and the page context.
//! - [`security`]: sessions and the owner redirect.
//! - [`assets`]: the built client (Vite manifest, `/assets/*`).
//! - [`embedded`]: the client, the demo site and the starter site built into the binary.
//! - [`ops`]: `/metrics` and health probes on the ops listener.
//! - [`overload`]: the limit on state-changing requests in flight (503 past it).
//! - [`shutdown`]: the stop signals.
//! - [`check_site`]: `veranda check-site`.
//! - [`user_add`]: `veranda user add`.
//! - [`init`]: `veranda init`.

pub mod assets;
pub mod check_site;
pub mod cli;
pub mod compression;
pub mod edge;
pub mod embedded;
pub mod init;
pub mod media;
pub mod ops;
pub mod overload;
pub mod page_cache;
pub mod page_context;
pub mod pages;
pub mod query;
pub mod render;
pub mod routes;
pub mod security;
pub mod services;
pub mod settings;
pub mod shutdown;
#[cfg(test)]
mod spec_pins;
pub mod startup;
pub mod state;
pub mod telemetry;
pub mod user_add;
