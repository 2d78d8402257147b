//! `veranda user add --email E --role R`: creates an account in the store, reading the
//! password from standard input.
//!
//! With `--redis-url` (or `VERANDA_REDIS_URL`, or `redis_url` in the configuration) the
//! account is written to the store in Redis that every instance shares, while they run.
//! Otherwise the sled store is single-process: this opens the data directory the server
//! uses, so it runs while the server is stopped; a running server holds the directory's
//! lock and the command says so.

use std::io::{BufRead, IsTerminal, Read};
use std::path::Path;
use std::process::ExitCode;

use veranda_actors::accounts::{
    create_account, find_by_email, Account, AccountError, AccountRole, Email, EmailError, Password, PasswordError,
    RoleError, MAX_PASSWORD_BYTES,
};
use veranda_actors::store::{SledStore, Store, StoreError};

use crate::cli::UserAddArgs;
use crate::settings::{Overrides, Settings, SettingsError};

/// Why an account was not created.
#[derive(Debug, thiserror::Error)]
pub enum UserAddError {
    /// The configuration could not be read.
    #[error("bad configuration:\n{0}")]
    Settings(#[from] SettingsError),
    /// `--email` is not an address.
    #[error("--email: {0}")]
    Email(#[from] EmailError),
    /// A `--role` is not known.
    #[error("--role: {0}")]
    Role(#[from] RoleError),
    /// Another process (a running `veranda serve`) has the data directory open.
    #[error("{0}: the data directory is in use by another process (is `veranda serve` running?); the store is single-process, so stop the server and run `veranda user add` again")]
    Locked(String),
    /// The store could not be opened.
    #[error("{path}: cannot open the data directory: {source}")]
    Store {
        /// The data directory.
        path: String,
        /// What failed.
        source: StoreError,
    },
    /// The Redis of `--redis-url` cannot be used.
    #[error("{0}")]
    Redis(String),
    /// The account exists already, or could not be written.
    #[error("{0}")]
    Account(#[from] AccountError),
    /// Standard input could not be read.
    #[error("cannot read the password from standard input: {0}")]
    Stdin(#[from] std::io::Error),
    /// The password is empty or too long.
    #[error("{0}")]
    Password(#[from] PasswordError),
    /// The two passwords typed at the prompt differ.
    #[error("the passwords do not match")]
    Mismatch,
}

/// Runs the command: 0 when the account was created, 2 otherwise.
pub fn run(args: &UserAddArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("veranda user add: cannot start: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(add(args)) {
        Ok(account) => {
            println!("created account {} (id {})", account.email, account.id.as_str());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("veranda user add: {e}");
            ExitCode::from(2)
        }
    }
}

async fn add(args: &UserAddArgs) -> Result<Account, UserAddError> {
    let overrides =
        Overrides { data_dir: args.data_dir.clone(), redis_url: args.redis_url.clone(), ..Overrides::default() };
    let settings = Settings::load(args.config.as_deref(), std::env::vars(), &overrides)?;
    let email = Email::parse(&args.email)?;
    let roles = args.roles.iter().map(|r| AccountRole::parse(r)).collect::<Result<Vec<_>, _>>()?;
    let store = open_store(&settings).await?;
    let account = create(store.as_store(), email, &roles).await?;
    store.close().map_err(|source| UserAddError::Store { path: settings.data_dir.display().to_string(), source })?;
    Ok(account)
}

/// The account for `email` with `roles`, the password read from standard input, stored.
async fn create(store: &dyn Store, email: Email, roles: &[AccountRole]) -> Result<Account, UserAddError> {
    // Checked before asking for the password; `create_account` checks again.
    if find_by_email(store, &email)?.is_some() {
        return Err(AccountError::Duplicate(email).into());
    }
    let password = Password::parse(&read_password(&email)?)?;
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let account = Account::new(email, &password, roles, now)?;
    create_account(store, &account).await?;
    Ok(account)
}

/// The store the server of `settings` uses.
enum Opened {
    Sled(SledStore),
    Redis(veranda_actors::store::RedisStore),
}

impl Opened {
    fn as_store(&self) -> &dyn Store {
        match self {
            Opened::Sled(store) => store,
            Opened::Redis(store) => store,
        }
    }

    fn close(&self) -> Result<(), StoreError> {
        match self {
            Opened::Sled(store) => store.close(),
            Opened::Redis(store) => {
                store.close();
                Ok(())
            }
        }
    }
}

async fn open_store(settings: &Settings) -> Result<Opened, UserAddError> {
    match &settings.redis_url {
        Some(url) => crate::startup::open_redis(url, &settings.redis)
            .await
            .map(Opened::Redis)
            .map_err(|e| UserAddError::Redis(e.to_string())),
        None => open_sled(&settings.data_dir, settings.store_cache_mb).map(Opened::Sled),
    }
}

/// The data directory's store, with the page cache `store_cache_mb` gives the server.
fn open_sled(dir: &Path, cache_mb: std::num::NonZeroU64) -> Result<SledStore, UserAddError> {
    SledStore::open_with_cache(dir, cache_mb).map_err(|source| match &source {
        StoreError::Backend(message) if message.contains("could not acquire lock") => {
            UserAddError::Locked(dir.display().to_string())
        }
        _ => UserAddError::Store { path: dir.display().to_string(), source },
    })
}

/// One line from standard input, or a prompt without echo (typed twice) on a terminal.
fn read_password(email: &Email) -> Result<String, UserAddError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        let first = rpassword::prompt_password(format!("Password for {email}: "))?;
        let again = rpassword::prompt_password("Repeat the password: ")?;
        return if first == again { Ok(first) } else { Err(UserAddError::Mismatch) };
    }
    let mut line = String::new();
    // One byte more than allowed, plus the line end, so an overlong password is seen.
    stdin.lock().take(MAX_PASSWORD_BYTES as u64 + 3).read_line(&mut line)?;
    Ok(first_line(&line).to_string())
}

/// The line without its `\n` or `\r\n`.
fn first_line(text: &str) -> &str {
    let line = text.split('\n').next().unwrap_or("");
    line.strip_suffix('\r').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_end_is_not_part_of_the_password() {
        assert_eq!(first_line("secret\n"), "secret");
        assert_eq!(first_line("secret\r\nmore"), "secret");
        assert_eq!(first_line("  spaced  "), "  spaced  ");
        assert_eq!(first_line("\n"), "");
    }
}
