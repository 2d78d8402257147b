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
use tokio::time::{sleep_until, Instant, Sleep};

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
///
/// The deadline's timer is armed the first time the body is found not all there: a small
/// body usually comes in the same packets as the request's head, and is then read to its
/// end without one (a timer is an allocation and two updates of the runtime's timer
/// wheel, on every such request).
pub struct GuardedBody<S> {
    inner: S,
    /// When the body must have arrived.
    due: Instant,
    /// The timer for `due`, once the body was found not all there.
    deadline: Option<Pin<Box<Sleep>>>,
    gate: Option<WriteGate>,
    fate: SharedFate,
    ended: bool,
}

impl<S> GuardedBody<S> {
    /// `inner`, cut off `timeout` from now, passing `gate` (if any) when it ends.
    pub fn new(inner: S, timeout: Duration, gate: Option<WriteGate>, fate: SharedFate) -> GuardedBody<S> {
        GuardedBody { inner, due: Instant::now() + timeout, deadline: None, gate, fate, ended: false }
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

    /// The deadline passed before the body's end.
    fn time_out(&mut self) -> Poll<Option<Result<Bytes, PayloadError>>> {
        self.ended = true;
        *self.fate.borrow_mut() = BodyFate::TimedOut;
        Poll::Ready(Some(Err(io_error(std::io::ErrorKind::TimedOut, "the request body arrived too slowly"))))
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
        if self.deadline.as_mut().is_some_and(|deadline| deadline.as_mut().poll(cx).is_ready()) {
            return self.time_out();
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(None) => self.arrive(),
            Poll::Ready(Some(Err(e))) => {
                self.ended = true;
                Poll::Ready(Some(Err(e)))
            }
            Poll::Pending if self.deadline.is_none() => {
                // The rest of the body is still on its way: from now on the timer wakes
                // the reader at the deadline if the body has not woken it first.
                let mut deadline = Box::pin(sleep_until(self.due));
                let late = deadline.as_mut().poll(cx).is_ready();
                self.deadline = Some(deadline);
                if late {
                    return self.time_out();
                }
                Poll::Pending
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use futures_util::{stream, StreamExt};

    use super::*;

    type Chunk = Result<Bytes, PayloadError>;

    fn guarded<S>(inner: S, timeout: Duration) -> (GuardedBody<S>, SharedFate) {
        let fate: SharedFate = Rc::new(RefCell::new(BodyFate::Arriving));
        (GuardedBody::new(inner, timeout, None, fate.clone()), fate)
    }

    #[tokio::test]
    async fn a_body_already_there_is_read_without_a_timer() {
        let (mut body, fate) =
            guarded(stream::iter([Ok::<_, PayloadError>(Bytes::from_static(b"[]"))]), Duration::ZERO);
        let read: Vec<Chunk> = (&mut body).collect().await;
        assert_eq!(read.len(), 1);
        assert!(
            read[0].as_ref().is_ok_and(|b| b == "[]"),
            "a deadline already past does not cut off a body that is all there"
        );
        assert!(matches!(*fate.borrow(), BodyFate::Arrived(None)));
        assert!(body.deadline.is_none(), "no timer was armed");
    }

    #[tokio::test]
    async fn a_body_that_stops_arriving_is_cut_off_at_its_deadline() {
        let started = std::time::Instant::now();
        let (mut body, fate) = guarded(
            stream::iter([Ok::<_, PayloadError>(Bytes::from_static(b"["))]).chain(stream::pending()),
            Duration::from_millis(50),
        );
        let first = body.next().await;
        assert!(first.is_some_and(|c| c.is_ok()), "what arrived is handed on");
        let cut =
            tokio::time::timeout(Duration::from_secs(5), body.next()).await.expect("the deadline wakes the reader");
        let Some(Err(PayloadError::Io(error))) = cut else { panic!("expected a timeout, got {cut:?}") };
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut);
        assert!(started.elapsed() >= Duration::from_millis(50));
        assert!(matches!(*fate.borrow(), BodyFate::TimedOut));
        assert!(body.next().await.is_none(), "nothing after the cut");
    }

    #[tokio::test]
    async fn a_body_that_pauses_and_ends_before_its_deadline_arrives() {
        let (sender, receiver) = tokio::sync::mpsc::channel::<Chunk>(1);
        let (mut body, fate) = guarded(tokio_stream_of(receiver), Duration::from_secs(30));
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            let _ = sender.send(Ok(Bytes::from_static(b"late"))).await;
        });
        let read: Vec<Chunk> = (&mut body).collect().await;
        assert!(read.len() == 1 && read[0].as_ref().is_ok_and(|b| b == "late"));
        assert!(matches!(*fate.borrow(), BodyFate::Arrived(None)));
        assert!(body.deadline.is_some(), "the pause armed the timer");
    }

    /// The chunks sent to `receiver`, as a stream ending when every sender is gone.
    fn tokio_stream_of(receiver: tokio::sync::mpsc::Receiver<Chunk>) -> impl Stream<Item = Chunk> + Unpin {
        Box::pin(stream::unfold(receiver, |mut receiver| async move { receiver.recv().await.map(|c| (c, receiver)) }))
    }
}
