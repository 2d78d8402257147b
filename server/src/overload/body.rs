//! [`GuardedBody`]: a request body that must arrive within its deadline, and that takes
//! its place in the [`WriteGate`] only once it has arrived whole, so a client trickling a
//! body holds no place while it trickles.
//!
//! What happened to the body is told to the middleware through a shared [`BodyFate`]:
//! after the handler answers, a body that timed out is answered 408 and one refused by a
//! full gate 503, whatever the handler made of the read error it saw.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use futures_util::Stream;
use tokio::time::{sleep, Sleep};

use super::{WriteGate, WritePermit};

/// What became of a guarded body.
#[derive(Default)]
pub enum BodyFate {
    /// Not read to its end yet (or never read).
    #[default]
    Arriving,
    /// Read whole; the place it holds in the gate, if it needs one.
    Arrived(Option<WritePermit>),
    /// Read whole while the gate was full: the handler saw an error instead of its end.
    Refused,
    /// Not read whole before its deadline.
    TimedOut,
}

/// The fate of a body, shared by its stream and the middleware.
pub type SharedFate = Rc<RefCell<BodyFate>>;

/// A body stream with a deadline and, for state-changing requests, a gate to pass at its end.
pub struct GuardedBody<S> {
    inner: S,
    deadline: Pin<Box<Sleep>>,
    gate: Option<WriteGate>,
    fate: SharedFate,
    ended: bool,
}

impl<S> GuardedBody<S> {
    /// `inner`, cut off `timeout` from now, passing `gate` (if any) when it ends.
    pub fn new(inner: S, timeout: Duration, gate: Option<WriteGate>, fate: SharedFate) -> GuardedBody<S> {
        GuardedBody { inner, deadline: Box::pin(sleep(timeout)), gate, fate, ended: false }
    }

    /// The stream's end: take a place in the gate, or refuse the request.
    fn arrive(&mut self) -> Poll<Option<Result<Bytes, PayloadError>>> {
        self.ended = true;
        let permit = match &self.gate {
            None => None,
            Some(gate) => match gate.try_enter() {
                Some(permit) => Some(permit),
                None => {
                    *self.fate.borrow_mut() = BodyFate::Refused;
                    return Poll::Ready(Some(Err(io_error(std::io::ErrorKind::Other, "the server is busy"))));
                }
            },
        };
        *self.fate.borrow_mut() = BodyFate::Arrived(permit);
        Poll::Ready(None)
    }
}

fn io_error(kind: std::io::ErrorKind, message: &str) -> PayloadError {
    PayloadError::Io(std::io::Error::new(kind, message.to_string()))
}

impl<S> Stream for GuardedBody<S>
where
    S: Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.ended {
            return Poll::Ready(None);
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            self.ended = true;
            *self.fate.borrow_mut() = BodyFate::TimedOut;
            return Poll::Ready(Some(Err(io_error(
                std::io::ErrorKind::TimedOut,
                "the request body arrived too slowly",
            ))));
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(None) => self.arrive(),
            Poll::Ready(Some(Err(e))) => {
                self.ended = true;
                Poll::Ready(Some(Err(e)))
            }
            other => other,
        }
    }
}
