//! What produces a run's events: edits or shared-log publishes on Veranda, publishes on
//! Pushpin.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::Semaphore;

use veranda_actors::streams::{EditEvent, EditName, SharedLog};
use veranda_actors::telemetry::records::now_ms;
use veranda_benches::live::{Editor, DEFAULT_BLOCK};

use super::options::Options;
use super::subscribers::Shared;
use super::MAX_IN_FLIGHT;

/// Produces events on Veranda (edits or shared-log publishes) or Pushpin (publishes).
pub(crate) enum Producer {
    /// Content edits through the API.
    Veranda(Editor),
    /// Edit events appended to the edits stream's shared Redis log, as another instance does.
    Direct(Box<SharedLog>),
    /// Publishes to Pushpin's HTTP publish endpoint.
    Pushpin {
        /// The HTTP client.
        http: reqwest::Client,
        /// `http://127.0.0.1:PORT/publish/`.
        url: String,
        /// The channel.
        channel: String,
        /// Message size in bytes.
        payload_bytes: usize,
    },
}

impl Producer {
    /// Produces event `seq`.
    pub(crate) async fn produce(&self, seq: u64) -> Result<(), String> {
        match self {
            Producer::Veranda(editor) => editor.edit(&format!("<p>Fan-out run, event {seq}.</p>")).await,
            Producer::Direct(log) => {
                log.publish(&direct_event(), now_ms()).await.map(|_| ()).map_err(|e| format!("publish: {e}"))
            }
            Producer::Pushpin { payload_bytes, .. } => {
                let sent = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_micros()).unwrap_or(0);
                let head = format!(r#"{{"seq":{seq},"sent":{sent},"pad":""#);
                let pad = payload_bytes.saturating_sub(head.len() + 2);
                self.publish(format!("{head}{}\"}}", "x".repeat(pad))).await
            }
        }
    }

    /// Publishes a warm-up message (Pushpin only).
    pub(crate) async fn warm_up(&self) -> Result<(), String> {
        self.publish(r#"{"warm":1}"#.to_string()).await
    }

    pub(crate) async fn publish(&self, content: String) -> Result<(), String> {
        let Producer::Pushpin { http, url, channel, .. } = self else { return Ok(()) };
        let body = serde_json::json!({ "items": [{ "channel": channel, "formats": { "ws-message": { "content": content } } }] });
        let res = http.post(url).json(&body).send().await.map_err(|e| format!("publish: {e}"))?;
        if res.status().is_success() {
            return Ok(());
        }
        let status = res.status();
        Err(format!("publish answered {status}: {}", res.text().await.unwrap_or_default()))
    }
}

/// The event of the direct producer: the edit event a block edit publishes (same fields,
/// about the same size), so its frame is the size of an edit's.
pub(crate) fn direct_event() -> serde_json::Value {
    let event = EditEvent {
        name: EditName::UserSavesBlockContent,
        actor: "owner".into(),
        action: "save".into(),
        object_type: "block".into(),
        object_id: DEFAULT_BLOCK.into(),
        product_page: "page-editor".into(),
        product_section: "section-editor".into(),
        paths: vec!["/about".into()],
    };
    serde_json::to_value(event).unwrap_or_default()
}

/// Produces `events` events one after another on a fixed clock, each after the previous
/// one's answer; returns the producer's request times, µs (unsorted).
pub(crate) async fn produce_closed(
    producer: &Producer,
    shared: &Shared,
    options: &Options,
    events: usize,
) -> Result<Vec<u32>, String> {
    let mut produce = Vec::with_capacity(events);
    let period = Duration::from_secs_f64(1.0 / f64::from(options.rate));
    let mut clock = tokio::time::interval(period);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for seq in 0..events {
        clock.tick().await;
        let started = shared.micros();
        shared.sent[seq].store(started + 1, Ordering::Release);
        producer.produce(seq as u64).await.map_err(|e| format!("event {seq}: {e}"))?;
        produce.push((shared.micros() - started).min(u32::MAX as u64) as u32);
    }
    Ok(produce)
}

/// When event `seq` is due, µs after `first`, at `rate` events per second.
pub(crate) fn due_micros(first: u64, seq: u64, rate: u32) -> u64 {
    first + seq * 1_000_000 / u64::from(rate.max(1))
}

/// Produces `events` events each at its due time (open loop, at most [`MAX_IN_FLIGHT`] at
/// once; an event due while all are busy waits, and the wait is part of its latency, which
/// counts from the due time); returns the time from each event's due time to its answer, µs.
pub(crate) async fn produce_open(
    producer: Producer,
    shared: &Arc<Shared>,
    options: &Options,
    events: usize,
) -> Result<Vec<u32>, String> {
    let producer = Arc::new(producer);
    let slots = Arc::new(Semaphore::new(MAX_IN_FLIGHT));
    let first = shared.micros() + 1_000;
    let mut tasks = Vec::with_capacity(events);
    for seq in 0..events {
        let due = due_micros(first, seq as u64, options.rate);
        tokio::time::sleep_until((shared.start + Duration::from_micros(due)).into()).await;
        let slot = slots.clone().acquire_owned().await.map_err(|e| e.to_string())?;
        shared.sent[seq].store(due + 1, Ordering::Release);
        let (producer, shared) = (producer.clone(), shared.clone());
        tasks.push(tokio::spawn(async move {
            let result = producer.produce(seq as u64).await.map_err(|e| format!("event {seq}: {e}"));
            drop(slot);
            result.map(|()| (shared.micros().saturating_sub(due)).min(u32::MAX as u64) as u32)
        }));
    }
    let mut produce = Vec::with_capacity(events);
    for task in tasks {
        produce.push(task.await.map_err(|e| e.to_string())??);
    }
    Ok(produce)
}
