//! The `veranda` binary's commands, run as a child process: `check-site`, `serve`'s
//! start-up refusals and graceful stop, and `user add`.

mod check_site;
mod serve;
mod user_add;
