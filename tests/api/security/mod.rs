//! The security suite: every state-changing route refuses missing, foreign and tampered
//! crumbs and `GET`; bodies are bounded and deep nesting is refused; redirects never
//! leave the site; sessions and passwords are handled as the spec requires.
//!
//! Websocket `Origin` and authentication are covered by `streams`, and `/metrics` on the
//! ops listener only by `ops`.

mod accounts;
mod bodies;
mod csrf;
mod redirects;
mod routes;
mod support;
mod xss;
