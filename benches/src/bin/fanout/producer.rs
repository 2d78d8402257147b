//! What produces a run's events: edits or shared-log publishes on Veranda, publishes on
//! Pushpin.

use std::time::{SystemTime, UNIX_EPOCH};

use veranda_actors::streams::{EditEvent, EditName, SharedLog};
use veranda_actors::telemetry::records::now_ms;
use veranda_benches::live::{Editor, DEFAULT_BLOCK};

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
