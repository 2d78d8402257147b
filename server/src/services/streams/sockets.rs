//! [`OpenSockets`]: the stream sockets open per session, so that signing out closes them
//! at once rather than at the next heartbeat's session check.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

/// Per session id, each open socket's number and its wake-up.
type Registry = Arc<Mutex<HashMap<String, HashMap<u64, Arc<Notify>>>>>;

/// The open stream sockets, by session id.
#[derive(Default)]
pub struct OpenSockets {
    /// Per session id, each socket's number and its wake-up.
    sessions: Registry,
    /// The next socket number.
    next: AtomicU64,
}

impl OpenSockets {
    /// Registers a socket opened with `session_id`; it is told when the session ends
    /// and leaves the registry when the returned guard drops.
    pub fn register(&self, session_id: &str) -> SocketGuard {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let ended = Arc::new(Notify::new());
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.entry(session_id.to_string()).or_default().insert(id, ended.clone());
        }
        SocketGuard { sessions: self.sessions.clone(), session_id: session_id.to_string(), id, ended }
    }

    /// Tells every socket of `session_id` that its session ended; how many there were.
    pub fn session_ended(&self, session_id: &str) -> usize {
        let Ok(sessions) = self.sessions.lock() else { return 0 };
        let Some(sockets) = sessions.get(session_id) else { return 0 };
        for ended in sockets.values() {
            // A stored permit: the socket sees it even when it is busy writing now.
            ended.notify_one();
        }
        sockets.len()
    }

    /// How many sockets are registered.
    pub fn len(&self) -> usize {
        self.sessions.lock().map(|s| s.values().map(HashMap::len).sum()).unwrap_or(0)
    }

    /// Whether no socket is registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One socket's place in [`OpenSockets`]; removes it when dropped.
pub struct SocketGuard {
    /// The registry.
    sessions: Registry,
    /// The socket's session.
    session_id: String,
    /// The socket's number.
    id: u64,
    /// Woken when the session ends.
    ended: Arc<Notify>,
}

impl SocketGuard {
    /// Resolves once the socket's session has ended.
    pub async fn session_ended(&self) {
        self.ended.notified().await
    }
}

impl Drop for SocketGuard {
    fn drop(&mut self) {
        if let Ok(mut sessions) = self.sessions.lock() {
            if let Some(sockets) = sessions.get_mut(&self.session_id) {
                sockets.remove(&self.id);
                if sockets.is_empty() {
                    sessions.remove(&self.session_id);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn ending_a_session_wakes_only_its_sockets_and_guards_clean_up() {
        let open = OpenSockets::default();
        let a = open.register("s1");
        let b = open.register("s1");
        let other = open.register("s2");
        assert_eq!(open.session_ended("s1"), 2);
        a.session_ended().await;
        b.session_ended().await;
        let woke = tokio::time::timeout(std::time::Duration::from_millis(50), other.session_ended()).await;
        assert!(woke.is_err(), "another session's socket stays open");
        drop((a, b));
        assert_eq!(open.session_ended("s1"), 0);
        assert_eq!(open.len(), 1);
        drop(other);
        assert!(open.is_empty());
    }
}
