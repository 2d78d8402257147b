//! With `--redis-url`, edits made through another instance reach this one on the shared
//! edits stream. Each instance keeps the edited site in memory ([`LiveSite`], the
//! header, footer and languages of [`SiteEdits`](super::SiteEdits)), so on every edit
//! event it reads them again from the shared store: the next page rendered here shows
//! the edit. The follower is one subscriber of the edits stream (counted in its
//! `clients`); should it fall behind and be dropped, it reads everything again and
//! subscribes anew.

use std::sync::Arc;
use std::time::Duration;

use veranda_actors::streams::Subscribe;

use super::Streams;
use crate::services::LiveSite;

/// Pause before subscribing again after the follower was dropped.
const RESUBSCRIBE_PAUSE: Duration = Duration::from_millis(200);

/// Follows the edits stream until it stops (inside the actix system).
pub fn start(streams: Arc<Streams>, site: Arc<LiveSite>) {
    actix::spawn(async move {
        loop {
            let Ok(subscription) = streams.edits.send(Subscribe(None)).await else { return };
            let mut outbox = subscription.outbox;
            // Whatever happened before subscribing is read once now.
            reload(&streams, &site).await;
            while outbox.recv().await.is_some() {
                reload(&streams, &site).await;
            }
            tokio::time::sleep(RESUBSCRIBE_PAUSE).await;
        }
    });
}

async fn reload(streams: &Streams, site: &LiveSite) {
    site.reload().await;
    streams.site_edits.reload();
}
