//! The websocket subscribers: what they share with the producer, how a frame names its
//! event, and one subscriber's loop.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::{watch, Semaphore};
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::tungstenite::Message;

use super::options::Side;

/// What every subscriber task shares with the producer.
pub(crate) struct Shared {
    /// The run's clock.
    pub(crate) start: Instant,
    /// Send time of event `seq` in µs after `start`, plus one (0: not produced yet).
    pub(crate) sent: Vec<AtomicU64>,
    /// Sockets whose handshake succeeded.
    pub(crate) connected: AtomicUsize,
    /// Subscribers subscribed (hello or first warm-up received).
    pub(crate) ready: AtomicUsize,
    /// Deliveries of produced events received, all subscribers together.
    pub(crate) received: AtomicU64,
    /// Sockets that failed or were closed by the server before the end.
    pub(crate) closed: AtomicUsize,
    /// The first reason a socket failed.
    pub(crate) first_failure: Mutex<Option<String>>,
    /// Size of the first event frame received, in bytes.
    pub(crate) frame_bytes: AtomicUsize,
    /// Frames that named an event twice or one not produced.
    pub(crate) unexpected: AtomicU64,
    /// When the last delivery was read, µs after `start`.
    pub(crate) last_frame: AtomicU64,
}

impl Shared {
    pub(crate) fn fail(&self, why: String) {
        self.closed.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_failure.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(why);
    }

    pub(crate) fn micros(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
}

/// The whole number after `"key":` in `text`.
pub(crate) fn number_after(text: &str, key: &str) -> Option<u64> {
    let at = text.find(key)? + key.len();
    let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
    text[at..at + digits].parse().ok()
}

/// What a subscriber makes of one text frame.
#[derive(Debug, PartialEq)]
pub(crate) enum Frame {
    /// Subscribed; on Veranda with the stream's offset at that moment.
    Ready { offset: u64 },
    /// Event number `seq` (0-based) of the run, or an offset to resolve against the hello.
    Event { number: u64 },
    /// Anything else.
    Other,
}

pub(crate) fn read_frame(side: Side, text: &str) -> Frame {
    match side {
        Side::Veranda if text.starts_with(r#"{"type":"event""#) => {
            number_after(text, r#""offset":"#).map_or(Frame::Other, |number| Frame::Event { number })
        }
        Side::Veranda if text.starts_with(r#"{"type":"hello""#) => {
            number_after(text, r#""offset":"#).map_or(Frame::Other, |offset| Frame::Ready { offset })
        }
        Side::Pushpin if text.starts_with(r#"{"warm":"#) => Frame::Ready { offset: 0 },
        Side::Pushpin if text.starts_with(r#"{"seq":"#) => {
            number_after(text, r#""seq":"#).map_or(Frame::Other, |number| Frame::Event { number })
        }
        _ => Frame::Other,
    }
}

/// How one subscriber's run ended.
#[derive(Debug, Default)]
pub(crate) struct Ending {
    /// Latencies of the events it received, µs.
    pub(crate) latencies: Vec<u32>,
    /// Whether it was subscribed before the first event (hello or the warm-up).
    pub(crate) ready: bool,
    /// Whether its socket failed or was closed by the server before the end.
    pub(crate) closed: bool,
}

impl Ending {
    /// The deliveries of `events` this subscriber missed: (on an open socket, on a socket
    /// that was closed). A socket never subscribed was not expected to get any.
    pub(crate) fn missing(&self, events: u64) -> (u64, u64) {
        let missing = events.saturating_sub(self.latencies.len() as u64);
        match (self.ready, self.closed) {
            (false, _) => (0, 0),
            (true, false) => (missing, 0),
            (true, true) => (0, missing),
        }
    }
}

/// One subscriber: connects, then times every event it reads until `stop`.
pub(crate) async fn subscriber(
    side: Side,
    request: Request,
    shared: Arc<Shared>,
    gate: Arc<Semaphore>,
    mut stop: watch::Receiver<bool>,
) -> Ending {
    let mut ending = Ending::default();
    let socket = {
        let Ok(_permit) = gate.acquire().await else { return ending };
        match tokio::time::timeout(Duration::from_secs(60), tokio_tungstenite::connect_async(request)).await {
            Ok(Ok((socket, _))) => socket,
            Ok(Err(e)) => {
                shared.fail(format!("handshake: {e}"));
                ending.closed = true;
                return ending;
            }
            Err(_) => {
                shared.fail("handshake timed out".into());
                ending.closed = true;
                return ending;
            }
        }
    };
    shared.connected.fetch_add(1, Ordering::Relaxed);
    let latencies = &mut ending.latencies;
    let (_sink, mut frames) = socket.split();
    let mut base: Option<u64> = None;
    // Events already received (a bit each): with open-loop publishing, concurrent publishes
    // may arrive out of order, which is not a loss; a second copy is unexpected.
    let mut seen = vec![0u64; shared.sent.len() / 64 + 1];
    loop {
        let frame = tokio::select! {
            _ = stop.changed() => break,
            frame = frames.next() => frame,
        };
        let at = shared.micros();
        let text = match frame {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(reason))) => {
                shared.fail(format!("closed by the server: {reason:?}"));
                ending.closed = true;
                break;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                shared.fail(format!("read: {e}"));
                ending.closed = true;
                break;
            }
            None => {
                shared.fail("the socket ended".into());
                ending.closed = true;
                break;
            }
        };
        match read_frame(side, &text) {
            Frame::Ready { offset } => {
                if base.is_none() {
                    base = Some(offset);
                    ending.ready = true;
                    shared.ready.fetch_add(1, Ordering::Relaxed);
                }
            }
            Frame::Event { number } => {
                // Veranda numbers events by stream offset: the run's first edit is hello + 1.
                let seq = match (side, base) {
                    (Side::Veranda, Some(base)) if number > base => number - base - 1,
                    (Side::Pushpin, Some(_)) => number,
                    // A socket that missed the one warm-up is not counted, nor are its frames.
                    (Side::Pushpin, None) => continue,
                    _ => {
                        shared.unexpected.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                };
                let sent = shared.sent.get(seq as usize).map_or(0, |s| s.load(Ordering::Acquire));
                let (word, bit) = (seq as usize / 64, 1u64 << (seq % 64));
                if sent == 0 || seen[word] & bit != 0 {
                    shared.unexpected.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                seen[word] |= bit;
                let _ = shared.frame_bytes.compare_exchange(0, text.len(), Ordering::Relaxed, Ordering::Relaxed);
                latencies.push(at.saturating_sub(sent - 1).min(u32::MAX as u64) as u32);
                shared.received.fetch_add(1, Ordering::Relaxed);
                shared.last_frame.fetch_max(at, Ordering::Relaxed);
            }
            Frame::Other => {}
        }
    }
    ending
}
