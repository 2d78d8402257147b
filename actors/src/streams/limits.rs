//! [`StreamLimits`]: how much history each live stream keeps and how its subscribers are
//! paced (`[streams]` in `config/veranda.toml`).

use serde::{Deserialize, Serialize};

/// The largest frame a stream client may send, in bytes; a bigger one closes its socket.
pub const MAX_CLIENT_FRAME_BYTES: usize = 64 * 1024;

/// History and pacing of the live streams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StreamLimits {
    /// Most events kept per stream for reconnecting clients.
    pub history_events: usize,
    /// Events older than this many days are dropped from the history.
    pub history_days: u64,
    /// Frames queued per client before it counts as a slow consumer and is closed.
    pub client_queue: usize,
    /// Seconds between pings (and session checks) on every open socket.
    pub heartbeat_secs: u64,
    /// Seconds without any frame from a client (pongs included) before its socket is closed;
    /// also the longest one write to a client may take (checked at each heartbeat: a ping
    /// still waiting to be written after this long closes the socket as too slow).
    pub client_timeout_secs: u64,
}

impl Default for StreamLimits {
    fn default() -> Self {
        StreamLimits {
            history_events: 10_000,
            history_days: 7,
            client_queue: 1024,
            heartbeat_secs: 10,
            client_timeout_secs: 30,
        }
    }
}

impl StreamLimits {
    /// The history's age limit in milliseconds.
    pub fn history_ms(&self) -> u64 {
        self.history_days.saturating_mul(24 * 60 * 60 * 1000)
    }
}
