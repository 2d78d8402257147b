//! The writing side of a stream socket: [`Outbound`], the websocket response body that
//! takes the subscriber's frames straight from its queue, and [`Control`], what the
//! socket's own task asks it to send (pings, pongs, the close frame).
//!
//! The connection polls the broadcaster's queue itself, so an event's frame reaches the
//! socket without another task or channel in between. Each poll takes every frame waiting
//! (up to [`MAX_BATCH_BYTES`]) and encodes them into one buffer: a socket that fell behind
//! catches up in a few writes. The shared frame text is copied once, into the socket's
//! buffer, behind a 2–4 byte header (server frames are not masked, RFC 6455 §5.2).
//!
//! The body ends after a close frame: the one the task sends, or close 1013 when the queue
//! ends (the broadcaster dropped the subscriber as a slow consumer, or the stream stopped),
//! sent after the frames still queued. It also ends when the task drops its sender. A body
//! whose client stopped reading is never polled again, so the task frees the queue itself
//! when the socket ends ([`QueueRelease`]): at most `client_queue` frames per socket, and
//! only while its task runs.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use actix_web::web::{Bytes, BytesMut};
use actix_ws::{CloseCode, CloseReason};
use bytestring::ByteString;
use futures_util::Stream;
use tokio::sync::mpsc;
use veranda_actors::streams::Outbox;

/// Most bytes one poll encodes before handing the buffer to the connection.
pub const MAX_BATCH_BYTES: usize = 64 * 1024;
/// Longest close reason: a control frame carries at most 125 bytes, 2 of them the code.
const MAX_CLOSE_REASON_BYTES: usize = 123;

/// RFC 6455 opcodes.
const TEXT: u8 = 0x1;
const CLOSE: u8 = 0x8;
const PING: u8 = 0x9;
const PONG: u8 = 0xA;

/// What the socket's task sends besides the stream's frames.
#[derive(Debug)]
pub enum Control {
    /// An empty ping (the heartbeat).
    Ping,
    /// The answer to a client's ping, with its payload.
    Pong(Bytes),
    /// The close frame; nothing is sent after it.
    Close(CloseReason),
}

/// The response body of a stream socket.
pub struct Outbound {
    /// Frames to send before the live ones: `hello`, then replayed events or a `reset`.
    backlog: VecDeque<ByteString>,
    /// The subscriber's live frames, filled by the broadcaster; `None` once released.
    frames: Arc<Mutex<Option<Outbox>>>,
    /// Pings, pongs and the close frame from the socket's task.
    control: mpsc::Receiver<Control>,
    /// Why the socket closes when the queue ends.
    queue_ended: CloseReason,
    /// A close frame was sent or the task went away: the body has ended.
    finished: bool,
}

impl Outbound {
    /// A body sending `backlog`, then `frames` as they come, and whatever `control` carries;
    /// with the handle that frees `frames`.
    pub fn new(
        backlog: Vec<ByteString>,
        frames: Outbox,
        control: mpsc::Receiver<Control>,
        queue_ended: CloseReason,
    ) -> (Outbound, QueueRelease) {
        let frames = Arc::new(Mutex::new(Some(frames)));
        let release = QueueRelease(frames.clone());
        (Outbound { backlog: backlog.into(), frames, control, queue_ended, finished: false }, release)
    }

    /// Encodes the task's messages waiting; true once the body must end.
    fn take_control(&mut self, buf: &mut BytesMut, cx: &mut Context<'_>) -> bool {
        loop {
            match self.control.poll_recv(cx) {
                Poll::Ready(Some(Control::Ping)) => put_frame(buf, PING, b""),
                Poll::Ready(Some(Control::Pong(payload))) => put_frame(buf, PONG, &payload[..payload.len().min(125)]),
                Poll::Ready(Some(Control::Close(reason))) => {
                    put_close(buf, &reason);
                    return true;
                }
                Poll::Ready(None) => return true,
                Poll::Pending => return false,
            }
        }
    }

    /// Encodes the backlog and the queued frames, up to [`MAX_BATCH_BYTES`]; true once the
    /// queue has ended (its close frame is then in `buf`).
    fn take_frames(&mut self, buf: &mut BytesMut, cx: &mut Context<'_>) -> bool {
        while buf.len() < MAX_BATCH_BYTES {
            let Some(frame) = self.backlog.pop_front() else { break };
            put_frame(buf, TEXT, frame.as_bytes());
        }
        let mut frames = self.frames.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(queue) = frames.as_mut() else {
            put_close(buf, &self.queue_ended);
            return true;
        };
        while buf.len() < MAX_BATCH_BYTES {
            match queue.poll_recv(cx) {
                Poll::Ready(Some(frame)) => put_frame(buf, TEXT, frame.as_bytes()),
                Poll::Ready(None) => {
                    put_close(buf, &self.queue_ended);
                    return true;
                }
                Poll::Pending => break,
            }
        }
        false
    }
}

impl Stream for Outbound {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.finished {
            return Poll::Ready(None);
        }
        let mut buf = BytesMut::new();
        this.finished = this.take_control(&mut buf, cx) || this.take_frames(&mut buf, cx);
        match (buf.is_empty(), this.finished) {
            (false, _) => Poll::Ready(Some(Ok(buf.freeze()))),
            (true, true) => Poll::Ready(None),
            (true, false) => Poll::Pending,
        }
    }
}

/// Frees a body's queue (and the frames in it) when its socket ends.
pub struct QueueRelease(Arc<Mutex<Option<Outbox>>>);

impl QueueRelease {
    /// Drops the queue; the body, if it is ever polled again, sends close 1013 and ends.
    pub fn release(&self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
    }
}

/// Appends one unmasked, final frame with `opcode` and `payload`.
fn put_frame(buf: &mut BytesMut, opcode: u8, payload: &[u8]) {
    let len = payload.len();
    buf.reserve(len + 10);
    buf.extend_from_slice(&[0x80 | opcode]);
    if len < 126 {
        buf.extend_from_slice(&[len as u8]);
    } else if let Ok(len) = u16::try_from(len) {
        buf.extend_from_slice(&[126]);
        buf.extend_from_slice(&len.to_be_bytes());
    } else {
        buf.extend_from_slice(&[127]);
        buf.extend_from_slice(&(len as u64).to_be_bytes());
    }
    buf.extend_from_slice(payload);
}

/// Appends a close frame: the code, then the reason cut to fit a control frame.
fn put_close(buf: &mut BytesMut, reason: &CloseReason) {
    let mut payload = u16::from(reason.code).to_be_bytes().to_vec();
    if let Some(text) = &reason.description {
        let mut end = text.len().min(MAX_CLOSE_REASON_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        payload.extend_from_slice(&text.as_bytes()[..end]);
    }
    put_frame(buf, CLOSE, &payload);
}

/// The close reason of a subscriber whose queue ended.
pub fn too_slow() -> CloseReason {
    CloseReason {
        code: CloseCode::Again,
        description: Some("Fell behind the stream; reconnect with your last offset.".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;

    fn body(backlog: &[&str]) -> (Outbound, mpsc::Sender<ByteString>, mpsc::Sender<Control>) {
        let (frames_tx, frames) = mpsc::channel(64);
        let (control_tx, control) = mpsc::channel(4);
        let backlog = backlog.iter().map(|s| ByteString::from(*s)).collect();
        (Outbound::new(backlog, frames, control, too_slow()).0, frames_tx, control_tx)
    }

    fn text(payload: &str) -> Vec<u8> {
        let mut buf = BytesMut::new();
        put_frame(&mut buf, TEXT, payload.as_bytes());
        buf.to_vec()
    }

    #[test]
    fn frames_have_the_short_16_and_64_bit_length_forms() {
        assert_eq!(text("hi"), vec![0x81, 2, b'h', b'i']);
        let medium = "x".repeat(300);
        assert_eq!(&text(&medium)[..4], &[0x81, 126, 1, 44]);
        assert_eq!(text(&medium).len(), 304);
        let large = "y".repeat(70_000);
        assert_eq!(&text(&large)[..10], &[0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
    }

    #[test]
    fn a_close_frame_has_the_code_and_a_reason_cut_at_a_character() {
        let mut buf = BytesMut::new();
        put_close(&mut buf, &too_slow());
        let reason_len = too_slow().description.map_or(0, |d| d.len()) as u8;
        assert_eq!(&buf[..4], &[0x88, 2 + reason_len, 0x03, 0xF5], "1013");
        let mut long = BytesMut::new();
        put_close(&mut long, &CloseReason { code: CloseCode::Policy, description: Some("é".repeat(100)) });
        assert_eq!(long[1], 2 + 122, "61 two-byte characters fit in 123 bytes");
    }

    #[actix_rt::test]
    async fn the_backlog_comes_first_and_waiting_frames_go_out_in_one_buffer() {
        let (mut body, frames, _control) = body(&["hello"]);
        for n in 0..3 {
            frames.try_send(ByteString::from(format!("e{n}"))).expect("room");
        }
        let first = body.next().await.expect("bytes").expect("no error");
        let expected: Vec<u8> = ["hello", "e0", "e1", "e2"].iter().flat_map(|s| text(s)).collect();
        assert_eq!(first.to_vec(), expected);
    }

    #[actix_rt::test]
    async fn when_the_queue_ends_the_waiting_frames_then_close_1013_are_sent_and_the_body_ends() {
        let (mut body, frames, _control) = body(&[]);
        frames.try_send(ByteString::from("last")).expect("room");
        drop(frames);
        let bytes = body.next().await.expect("bytes").expect("no error");
        assert_eq!(&bytes[..6], &text("last")[..]);
        assert_eq!(&bytes[6..10], &[0x88, bytes[7], 0x03, 0xF5]);
        assert_eq!(bytes.len(), 6 + 2 + bytes[7] as usize);
        assert!(body.next().await.is_none());
    }

    #[actix_rt::test]
    async fn control_frames_go_before_queued_ones_and_a_close_ends_the_body() {
        let (mut body, frames, control) = body(&[]);
        frames.try_send(ByteString::from("e")).expect("room");
        control.try_send(Control::Ping).expect("room");
        control.try_send(Control::Pong(Bytes::from_static(b"p"))).expect("room");
        let bytes = body.next().await.expect("bytes").expect("no error");
        assert_eq!(bytes.to_vec(), [vec![0x89, 0], vec![0x8A, 1, b'p'], text("e")].concat());
        control.try_send(Control::Close(too_slow())).expect("room");
        frames.try_send(ByteString::from("never sent")).expect("room");
        let close = body.next().await.expect("the close frame").expect("no error");
        assert_eq!(close[0], 0x88);
        assert!(body.next().await.is_none());
    }

    #[actix_rt::test]
    async fn a_released_queue_frees_its_frames_and_ends_the_body_with_1013() {
        let (frames_tx, frames) = mpsc::channel(8);
        let (_control_tx, control) = mpsc::channel(4);
        let (mut body, release) = Outbound::new(Vec::new(), frames, control, too_slow());
        frames_tx.try_send(ByteString::from("queued")).expect("room");
        release.release();
        assert!(frames_tx.is_closed(), "the queue is dropped with its frames");
        let close = body.next().await.expect("the close frame").expect("no error");
        assert_eq!(&close[..1], &[0x88]);
        assert_eq!(&close[2..4], &[0x03, 0xF5]);
        assert!(body.next().await.is_none());
    }

    #[actix_rt::test]
    async fn the_body_ends_when_the_socket_task_goes_away() {
        let (mut body, _frames, control) = body(&[]);
        drop(control);
        assert!(body.next().await.is_none());
    }
}
