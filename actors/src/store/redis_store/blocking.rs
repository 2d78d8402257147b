//! [`BlockingPool`]: a few synchronous Redis connections for the store's synchronous
//! reads (`get`, `scan_prefix`, `scan_range`) and the telemetry flusher thread.
//!
//! The [`Store`](super::super::Store) trait's reads are synchronous: actor handlers and
//! page renders call them without awaiting. Rather than block on an async connection
//! from inside the runtime (which can deadlock a current-thread runtime), they use plain
//! blocking connections whose connect, read and write each time out after
//! [`TIMEOUT`](super::TIMEOUT), so a Redis that stops answering holds a caller at most
//! that long before [`StoreError::Unavailable`].

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use super::super::StoreError;

/// Connections kept open between uses; more may be open at once while busy.
const KEPT: usize = 4;

/// A few blocking connections, opened on demand.
pub struct BlockingPool {
    /// Opens connections.
    client: redis::Client,
    /// Idle connections.
    idle: Mutex<Vec<redis::Connection>>,
    /// Connect, read and write timeout of each connection.
    timeout: Duration,
}

/// A Redis error as a store error.
pub fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("Redis: {e}"))
}

impl BlockingPool {
    /// A pool for `client`; no connection is opened yet.
    pub fn new(client: redis::Client, timeout: Duration) -> BlockingPool {
        BlockingPool { client, idle: Mutex::new(Vec::new()), timeout }
    }

    fn open(&self) -> Result<redis::Connection, StoreError> {
        let conn = self.client.get_connection_with_timeout(self.timeout).map_err(unavailable)?;
        conn.set_read_timeout(Some(self.timeout)).map_err(unavailable)?;
        conn.set_write_timeout(Some(self.timeout)).map_err(unavailable)?;
        Ok(conn)
    }

    /// Runs `f` on a connection; a connection that failed is dropped and `f` is tried
    /// once more on a fresh one.
    pub fn run<T>(&self, f: impl Fn(&mut redis::Connection) -> redis::RedisResult<T>) -> Result<T, StoreError> {
        for attempt in 0..2 {
            let idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
            let mut conn = match idle {
                Some(conn) => conn,
                None => self.open()?,
            };
            match f(&mut conn) {
                Ok(value) => {
                    let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
                    if idle.len() < KEPT {
                        idle.push(conn);
                    }
                    return Ok(value);
                }
                Err(e) if attempt == 0 && (e.is_io_error() || e.is_connection_dropped() || e.is_timeout()) => {}
                Err(e) => return Err(unavailable(e)),
            }
        }
        Err(unavailable("the connection failed twice"))
    }
}
