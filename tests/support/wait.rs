//! Waiting for something the server does in the background (a writer's flush, a
//! broadcast, a start-up) without sleeping for a guessed time: poll until it is there,
//! and fail the test, naming what never came, once a deadline has passed.

use std::fmt::Debug;
use std::future::Future;
use std::path::Path;
use std::process::Child;
use std::time::Duration;

use tokio::time::Instant;

/// How often [`eventually`] looks again.
const POLL: Duration = Duration::from_millis(20);

/// What a probe of [`eventually`] answers: done with a value, or not yet (and why).
pub trait Outcome {
    /// The value once done.
    type Value;
    /// `Ok(value)` once done; otherwise what was seen instead, for the failure message.
    fn settle(self) -> Result<Self::Value, String>;
}

impl<T> Outcome for Option<T> {
    type Value = T;
    fn settle(self) -> Result<T, String> {
        self.ok_or_else(|| "nothing yet".to_string())
    }
}

impl<T, E: Debug> Outcome for Result<T, E> {
    type Value = T;
    fn settle(self) -> Result<T, String> {
        self.map_err(|e| format!("{e:?}"))
    }
}

impl Outcome for bool {
    type Value = ();
    fn settle(self) -> Result<(), String> {
        if self {
            Ok(())
        } else {
            Err("false".to_string())
        }
    }
}

/// Calls `probe` every 20 ms until it answers `Some`/`Ok`/`true` and returns that value;
/// fails the test with `what` (what it waited for) and the last answer once `within`
/// has passed. The probe is always called at least once.
pub async fn eventually<F, Fut>(within: Duration, what: &str, mut probe: F) -> <Fut::Output as Outcome>::Value
where
    F: FnMut() -> Fut,
    Fut: Future,
    Fut::Output: Outcome,
{
    let deadline = Instant::now() + within;
    loop {
        match probe().await.settle() {
            Ok(value) => return value,
            Err(last) => assert!(Instant::now() < deadline, "waited {within:?} for {what}; last: {last}"),
        }
        tokio::time::sleep(POLL).await;
    }
}

/// Waits (at most `within`) until `GET url` answers 200: a server's readiness probe.
pub async fn until_ready(url: &str, within: Duration, what: &str) {
    until_ready_or_show(url, within, what, None, None).await;
}

/// What a started server came to.
pub(crate) enum Started {
    /// Its readiness probe answered 200.
    Ready,
    /// It exited first; the end of what it wrote.
    Exited(String),
}

/// [`until_ready`] for the server process `child`, whose standard error goes to `log`: a
/// server that never becomes ready fails the test with the end of what it wrote (a bad
/// setting, a store that would not open); one that exits first answers
/// [`Started::Exited`] with it, at once, for the caller to judge (a port taken between
/// `free_port` and the server's bind is worth another try).
pub(crate) async fn until_ready_or_exited(
    url: &str,
    within: Duration,
    what: &str,
    log: &Path,
    child: &mut Child,
) -> Started {
    until_ready_or_show(url, within, what, Some(log), Some(child)).await
}

async fn until_ready_or_show(
    url: &str,
    within: Duration,
    what: &str,
    log: Option<&Path>,
    mut child: Option<&mut Child>,
) -> Started {
    let probe = reqwest::Client::new();
    let deadline = Instant::now() + within;
    loop {
        if let Some(Ok(Some(_))) = child.as_mut().map(|c| c.try_wait()) {
            return Started::Exited(log.map(log_tail).unwrap_or_default());
        }
        let seen = match probe.get(url).send().await {
            Ok(res) if res.status().as_u16() == 200 => return Started::Ready,
            Ok(res) => format!("status {}", res.status()),
            Err(e) => e.to_string(),
        };
        if Instant::now() >= deadline {
            let written = log.map(log_tail).unwrap_or_default();
            panic!("waited {within:?} for {what}; last: {seen}{written}");
        }
        tokio::time::sleep(POLL).await;
    }
}

/// The last 4,000 characters of the file at `log`, introduced for a failure message.
fn log_tail(log: &Path) -> String {
    let written = std::fs::read_to_string(log).unwrap_or_default();
    let start = written.char_indices().rev().nth(3999).map_or(0, |(at, _)| at);
    format!("\nthe server wrote:\n{}", &written[start..])
}
