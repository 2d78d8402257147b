//! API tests: each spawns the server on port 0 with a temporary data dir.

mod auth;
mod config_area;
mod dashboards;
mod files;
mod forms;
mod health;
mod owner_redirect;
mod pages;
mod panel;
mod telemetry;
