//! API tests: each spawns the server on port 0 with a temporary data dir.

mod config_area;
mod files;
mod health;
mod owner_redirect;
mod pages;
mod panel;
