//! Where the crumb-signing key comes from, so that instances behind one load balancer
//! accept each other's crumbs.
//!
//! 1. `[security] crumb_key_file`: the file's bytes (leading and trailing whitespace
//!    removed, at least [`MIN_KEY_FILE_BYTES`]) hashed with SHA-256. Every instance given
//!    the same file signs with the same key. Checked when the settings are read, so a
//!    short or unreadable file stops `veranda serve` with the file and the field named.
//! 2. Else, with `--redis-url`: the key stored at `{key_prefix}crumb_key` ([`REDIS_KEY`]
//!    under `[redis] key_prefix`, default `veranda:crumb_key`). Each instance sends
//!    `SET NX` of a random key, then `GET`s the one that won: the first instance to start
//!    chooses it, every later one (and every restart) reads it.
//! 3. Else the store's own key (one instance; kept across restarts).

use std::path::{Path, PathBuf};
use std::time::Duration;

use rand::RngCore;
use sha2::{Digest, Sha256};
use veranda_actors::commerce::redis_storage::redact;
use veranda_actors::store::{Store, StoreError};

use super::crumb::CrumbKey;

/// The shortest key file accepted, in bytes.
pub const MIN_KEY_FILE_BYTES: usize = 32;
/// The Redis key holding the shared crumb key (32 raw bytes), after `[redis] key_prefix`.
pub const REDIS_KEY: &str = "crumb_key";
/// How long start-up waits for Redis.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a crumb key file cannot be used; the message names the file.
#[derive(Debug, thiserror::Error)]
pub enum KeyFileError {
    /// The file cannot be read.
    #[error("{}: cannot be read: {source}", path.display())]
    Unreadable {
        /// The key file.
        path: PathBuf,
        /// Why it cannot be read.
        source: std::io::Error,
    },
    /// The file holds too few bytes to be a key.
    #[error("{}: holds {len} bytes; a crumb key file needs at least {MIN_KEY_FILE_BYTES} (e.g. `openssl rand -hex 32`)", path.display())]
    TooShort {
        /// The key file.
        path: PathBuf,
        /// Its length, whitespace trimmed.
        len: usize,
    },
}

/// Why the shared key in Redis cannot be read or stored.
#[derive(Debug, thiserror::Error)]
pub enum RedisKeyError {
    /// The configured URL is not one Redis accepts.
    #[error("not a Redis URL: {0}")]
    NotAUrl(#[source] redis::RedisError),
    /// Redis could not be reached or refused a command.
    #[error("{0}")]
    Redis(#[from] redis::RedisError),
    /// The key (named) was gone right after it was set.
    #[error("{0} vanished right after it was set")]
    Vanished(String),
    /// The stored key (named) has the wrong length.
    #[error("{0} holds {1} bytes, not 32; delete it to start over")]
    WrongLength(String, usize),
    /// The blocking task that talks to Redis failed.
    #[error("{0}")]
    Task(#[from] tokio::task::JoinError),
}

/// Why the crumb key could not be had; the message names the field, file or URL.
#[derive(Debug, thiserror::Error)]
pub enum CrumbKeyError {
    /// `[security] crumb_key_file` cannot be used.
    #[error("security.crumb_key_file: {0}")]
    File(#[from] KeyFileError),
    /// The shared key in Redis cannot be read or stored.
    #[error("cannot read the crumb key from Redis at {url}: {source}")]
    Redis {
        /// The URL, its password redacted.
        url: String,
        /// What went wrong.
        source: RedisKeyError,
    },
    /// The store refused the instance's own key.
    #[error("{}: the crumb key cannot be stored: {source}", data_dir.display())]
    Store {
        /// The data directory.
        data_dir: PathBuf,
        /// What the store said.
        source: StoreError,
    },
}

/// Reads a key file: the key it gives, or why it cannot be used.
pub fn key_from_file(path: &Path) -> Result<CrumbKey, KeyFileError> {
    let bytes = std::fs::read(path).map_err(|source| KeyFileError::Unreadable { path: path.to_path_buf(), source })?;
    let trimmed = bytes.trim_ascii();
    if trimmed.len() < MIN_KEY_FILE_BYTES {
        return Err(KeyFileError::TooShort { path: path.to_path_buf(), len: trimmed.len() });
    }
    Ok(CrumbKey::from_bytes(Sha256::digest(trimmed).into()))
}

/// The shared key in Redis at `url` under `key_prefix`, stored by the first instance to ask.
pub async fn key_from_redis(url: &str, key_prefix: &str) -> Result<CrumbKey, CrumbKeyError> {
    let fail = |source: RedisKeyError| CrumbKeyError::Redis { url: redact(url), source };
    let task_url = url.to_string();
    let name = format!("{key_prefix}{REDIS_KEY}");
    let task_name = name.clone();
    let stored = tokio::task::spawn_blocking(move || -> Result<Vec<u8>, RedisKeyError> {
        let client = redis::Client::open(task_url.as_str()).map_err(RedisKeyError::NotAUrl)?;
        let mut conn = client.get_connection_with_timeout(REDIS_TIMEOUT)?;
        conn.set_read_timeout(Some(REDIS_TIMEOUT))?;
        conn.set_write_timeout(Some(REDIS_TIMEOUT))?;
        let mut fresh = [0u8; 32];
        rand::rng().fill_bytes(&mut fresh);
        redis::cmd("SET").arg(&task_name).arg(&fresh[..]).arg("NX").query::<Option<String>>(&mut conn)?;
        let stored = redis::cmd("GET").arg(&task_name).query::<Option<Vec<u8>>>(&mut conn)?;
        stored.ok_or(RedisKeyError::Vanished(task_name))
    })
    .await
    .map_err(|e| fail(e.into()))?
    .map_err(fail)?;
    let key =
        <[u8; 32]>::try_from(stored.as_slice()).map_err(|_| fail(RedisKeyError::WrongLength(name, stored.len())))?;
    Ok(CrumbKey::from_bytes(key))
}

/// The key this instance signs crumbs with (see the module docs for the order).
/// `key_file` is `[security] crumb_key_file`, `redis` the shared store's URL and
/// `[redis] key_prefix`, and `data_dir` the data directory `store` keeps (named should
/// the store refuse the key).
pub async fn crumb_key(
    key_file: Option<&Path>,
    redis: Option<(&str, &str)>,
    data_dir: &Path,
    store: &dyn Store,
) -> Result<CrumbKey, CrumbKeyError> {
    if let Some(path) = key_file {
        return Ok(key_from_file(path)?);
    }
    if let Some((url, key_prefix)) = redis {
        return key_from_redis(url, key_prefix).await;
    }
    CrumbKey::load_or_create(store)
        .await
        .map_err(|source| CrumbKeyError::Store { data_dir: data_dir.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_file_gives_the_same_key_on_every_instance_and_short_files_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("crumb.key");
        std::fs::write(&file, format!("{}\n", "k".repeat(40))).expect("write");
        let (a, b) = (key_from_file(&file).expect("a key"), key_from_file(&file).expect("a key"));
        assert_eq!(a.derive("compare"), b.derive("compare"));
        let crumb = a.issue_for(Some("s"));
        assert!(b.verifies_for(&crumb, Some("s")));
        std::fs::write(&file, "short\n").expect("write");
        let err = key_from_file(&file).err().expect("refused").to_string();
        assert!(err.contains("crumb.key") && err.contains("at least 32"), "{err}");
        let err = key_from_file(&dir.path().join("none")).err().expect("refused").to_string();
        assert!(err.contains("cannot be read"), "{err}");
    }
}
