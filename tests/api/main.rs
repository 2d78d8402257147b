//! API tests: each spawns the server on port 0 with a temporary data dir. The folders
//! follow `server/src/routes/`; `security/`, `ops/`, `abuse/`, `cli/` (the binary's
//! commands), the crash harness and the overload test cut across them.

mod abuse;
mod auth;
mod cli;
mod commerce;
mod config_area;
mod crash_harness;
mod dashboards;
mod files;
mod form_list;
mod forms;
mod google_maps;
mod images;
mod live_site;
mod openapi;
mod ops;
mod overload;
mod pages;
mod panel;
mod redis;
mod security;
mod streams;
mod telemetry;
mod visitor_stats;
mod widget;
