//! The `veranda` binary's commands, run as a child process: `check-site`, `serve`'s
//! start-up refusals and graceful stop, `serve` from an empty directory, `init` and
//! `user add`; and the systemd unit and nginx example installed beside it.

mod anywhere;
mod check_site;
mod deploy;
mod init;
mod serve;
mod user_add;
