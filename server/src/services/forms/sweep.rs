//! The sweep of expired submission keys and spent captcha marks: a timer started with
//! the services (`[forms] key_sweep_secs`, a first sweep at once) walks every key and
//! every mark in batches of [`SWEEP_BATCH`], removes the expired ones a batch at a time,
//! and yields between batches, so a flood of key requests is swept whole however large
//! it grew, and never on a request's path.

use std::sync::Arc;
use std::time::Duration;

use veranda_actors::forms::captcha::USED_PREFIX;
use veranda_actors::forms::config::FormSettings;
use veranda_actors::forms::record::KEY_PREFIX;
use veranda_actors::store::{Store, StoreError, Tree};

/// Keys read (and at most removed) in one batch.
pub const SWEEP_BATCH: usize = 1000;
/// Expired submission keys and spent captcha marks removed, by `kind`.
pub const SWEPT_METRIC: &str = "veranda_form_keys_swept_total";
/// Submission keys in the store, not yet expired, as of the last sweep.
pub const LIVE_METRIC: &str = "veranda_form_keys_live";

/// What one sweep did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Swept {
    /// Expired submission keys removed.
    pub keys: u64,
    /// Spent captcha marks whose challenge expired, removed.
    pub marks: u64,
    /// Submission keys left (still fresh).
    pub live_keys: u64,
}

/// Exports the sweep's metrics at zero and starts its timer.
pub fn start(store: Arc<dyn Store>, settings: &FormSettings) {
    crate::ops::metrics::install();
    metrics::describe_counter!(SWEPT_METRIC, "Expired form submission keys and spent captcha marks removed, by kind.");
    metrics::describe_gauge!(LIVE_METRIC, "Form submission keys in the store, not yet expired, as of the last sweep.");
    for kind in ["key", "captcha_mark"] {
        metrics::counter!(SWEPT_METRIC, "kind" => kind).increment(0);
    }
    metrics::gauge!(LIVE_METRIC).set(0.0);
    let every = Duration::from_secs(settings.key_sweep_secs.max(1));
    let lifetime = settings.key_lifetime_secs;
    actix_web::rt::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            match sweep(store.as_ref(), time::OffsetDateTime::now_utc().unix_timestamp(), lifetime).await {
                Ok(swept) => {
                    metrics::counter!(SWEPT_METRIC, "kind" => "key").increment(swept.keys);
                    metrics::counter!(SWEPT_METRIC, "kind" => "captcha_mark").increment(swept.marks);
                    metrics::gauge!(LIVE_METRIC).set(swept.live_keys as f64);
                }
                Err(error) => tracing::warn!(%error, "could not sweep expired form keys and captcha marks"),
            }
        }
    });
}

/// Removes every submission key issued `lifetime` seconds or more before `now`, and
/// every spent captcha mark whose challenge expired before `now` (unix seconds); values
/// that cannot be read go too.
pub async fn sweep(store: &dyn Store, now: i64, lifetime: i64) -> Result<Swept, StoreError> {
    // Keys hold their issue time; spent captcha marks hold their challenge's expiry.
    let (keys, live_keys) = sweep_prefix(store, KEY_PREFIX, |issued| now - issued >= lifetime).await?;
    let (marks, _) = sweep_prefix(store, USED_PREFIX, |expires| now > expires).await?;
    Ok(Swept { keys, marks, live_keys })
}

/// Walks every entry under `prefix` a batch at a time, removing those whose time is
/// `expired`; returns how many went and how many stayed.
async fn sweep_prefix(
    store: &dyn Store,
    prefix: &str,
    expired: impl Fn(i64) -> bool,
) -> Result<(u64, u64), StoreError> {
    let end = prefix_end(prefix.as_bytes());
    let mut cursor = prefix.as_bytes().to_vec();
    let (mut removed, mut kept) = (0, 0);
    loop {
        let batch = store.scan_range(Tree::Submissions, &cursor, Some(&end), SWEEP_BATCH)?;
        let done = batch.len() < SWEEP_BATCH;
        if let Some((last, _)) = batch.last() {
            cursor = [last.as_slice(), &[0]].concat();
        }
        let total = batch.len() as u64;
        let gone: Vec<Vec<u8>> = batch
            .into_iter()
            .filter(|(_, value)| {
                let at = std::str::from_utf8(value).ok().and_then(|t| t.parse::<i64>().ok());
                at.is_none_or(&expired)
            })
            .map(|(key, _)| key)
            .collect();
        if !gone.is_empty() {
            store.delete_all(Tree::Submissions, &gone).await?;
        }
        removed += gone.len() as u64;
        kept += total - gone.len() as u64;
        if done {
            return Ok((removed, kept));
        }
        tokio::task::yield_now().await;
    }
}

/// The first key after every key starting with `prefix` (its last byte raised by one;
/// the prefixes here end in `:`).
fn prefix_end(prefix: &[u8]) -> Vec<u8> {
    let mut end = prefix.to_vec();
    if let Some(last) = end.last_mut() {
        *last = last.saturating_add(1);
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;
    use veranda_actors::store::SledStore;

    #[tokio::test]
    async fn every_expired_key_and_mark_goes_in_batches_and_fresh_ones_stay() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path()).expect("opens");
        let now = 1_000_000;
        let mut entries: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for i in 0..2_500 {
            entries.push((format!("key:old{i:05}").into_bytes(), (now - 3600).to_string().into_bytes()));
        }
        for i in 0..30 {
            entries.push((format!("key:new{i:05}").into_bytes(), (now - 3599).to_string().into_bytes()));
        }
        entries.push((b"key:unreadable".to_vec(), b"soon".to_vec()));
        entries.push((b"captcha:spent".to_vec(), (now - 1).to_string().into_bytes()));
        entries.push((b"captcha:live".to_vec(), now.to_string().into_bytes()));
        entries.push((b"sub:form\0x".to_vec(), b"{}".to_vec()));
        store.put_all(Tree::Submissions, &entries).await.expect("puts");

        let swept = sweep(&store, now, 3600).await.expect("sweeps");

        assert_eq!(swept, Swept { keys: 2_501, marks: 1, live_keys: 30 });
        let left: Vec<Vec<u8>> =
            store.scan_prefix(Tree::Submissions, b"", 100).expect("scans").into_iter().map(|(k, _)| k).collect();
        assert_eq!(left.len(), 32, "the fresh keys, the live mark and the submission");
        assert!(left.iter().filter(|k| k.starts_with(b"key:")).all(|k| k.starts_with(b"key:new")));
        assert!(left.contains(&b"captcha:live".to_vec()));
        assert!(left.contains(&b"sub:form\0x".to_vec()), "submissions are never swept");
        assert_eq!(prefix_end(b"key:"), b"key;");
    }
}
