//! The command line: `veranda serve`, `veranda check-site DIR`, `veranda init DIR`,
//! `veranda user add`.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::settings::Overrides;

/// Veranda serves published sites and answers every call their pages make.
#[derive(Debug, Parser)]
#[command(name = "veranda", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve a site (the demo site by default) on 127.0.0.1:8080, ops on 127.0.0.1:9090.
    Serve(ServeArgs),
    /// Validate a site directory and print every problem as `file: field: message`.
    CheckSite {
        /// The site directory.
        dir: PathBuf,
    },
    /// Write a starter site (one page, navigation, a form) into DIR, which must be new or
    /// empty. Exits 0 when written, 2 otherwise.
    Init {
        /// The directory to create or fill.
        dir: PathBuf,
    },
    /// Manage accounts (the store is single-process: run while the server is stopped).
    User {
        /// What to do with accounts.
        #[command(subcommand)]
        command: UserCommand,
    },
}

/// `veranda user …`.
#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create an account; the password is read from standard input (one line), or
    /// prompted for without echo on a terminal. Exits 0 when created, 2 otherwise.
    Add(UserAddArgs),
}

/// Flags of `veranda user add`.
#[derive(Debug, clap::Args)]
pub struct UserAddArgs {
    /// The sign-in address.
    #[arg(long)]
    pub email: String,
    /// owner, admin, editor, viewer, member, or any contributor role name; repeatable.
    #[arg(long = "role", required = true)]
    pub roles: Vec<String>,
    /// Data directory of the store (the server's `data_dir`).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Redis URL of the store shared by several instances (the server's `redis_url`):
    /// the account is written there, and the data directory is not opened.
    #[arg(long)]
    pub redis_url: Option<String>,
    /// Configuration file (default: config/veranda.toml when it exists).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// Flags of `veranda serve`; each overrides the config file and `VERANDA_*` variables.
#[derive(Debug, clap::Args, Default)]
pub struct ServeArgs {
    /// Configuration file (default: config/veranda.toml when it exists).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Site directory to serve.
    #[arg(long)]
    pub site: Option<PathBuf>,
    /// Data directory of the store.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Public listener address.
    #[arg(long)]
    pub listen: Option<SocketAddr>,
    /// Ops listener address (metrics and health).
    #[arg(long)]
    pub ops_listen: Option<SocketAddr>,
    /// Redis URL shared by several instances.
    #[arg(long)]
    pub redis_url: Option<String>,
}

impl ServeArgs {
    /// The flags as settings overrides.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            listen: self.listen,
            ops_listen: self.ops_listen,
            site: self.site.clone(),
            data_dir: self.data_dir.clone(),
            redis_url: self.redis_url.clone(),
        }
    }
}
