//! API tests: each spawns the server on port 0 with a temporary data dir.

mod auth;
mod commerce;
mod commerce_crash;
mod config_area;
mod content_edits;
mod dashboards;
mod files;
mod form_list;
mod forms;
mod forms_captcha;
mod forms_crash;
mod forms_plain;
mod health;
mod images;
mod login_page;
mod owner_redirect;
mod pages;
mod panel;
mod security;
mod streams;
mod streams_edits;
mod streams_fanout;
mod telemetry;
mod unlock;
mod widget_rendering;
