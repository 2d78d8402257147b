//! Pushed-edit latency: how long after an edit's 2xx each subscriber of the edits stream
//! receives the edit's event.
//!
//! Talks to a running `veranda serve` on loopback (`benches/load/edit_latency.sh` starts
//! one). For each subscriber count N it opens N websockets to `/api/streams/edits` as the
//! owner, then applies M content edits (`PUT /api/content/blocks/{id}`, a new text each
//! time) one after another; after each 2xx it waits until every subscriber has the edit's
//! event (its offset is the hello's plus one per edit) before the next edit. Each delivery
//! is timed from the moment the 2xx was read; an event that arrives before the 2xx counts
//! as 0 ms and is counted as `early`. Times from the request's start are printed beside.
//!
//! ```text
//! edit_latency seed-session DATA_DIR SESSION_ID   # before the server opens DATA_DIR
//! edit_latency run --address http://127.0.0.1:PORT --session SESSION_ID \
//!     [--subscribers 1,10,100] [--edits 200] [--block ID] [--pace-ms 5]
//! ```
//!
//! `seed-session` stores a signed-in owner session in the store at DATA_DIR (sled is
//! single-process, so this runs before the server starts). Only loopback addresses are
//! accepted by `run`.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::tungstenite::Message;
use veranda_benches::live::{self, Editor, DEFAULT_BLOCK};
/// The longest wait for one edit's event to reach every subscriber.
const DELIVERY_DEADLINE: Duration = Duration::from_secs(20);
/// The longest wait for a subscriber's handshake and hello.
const CONNECT_DEADLINE: Duration = Duration::from_secs(20);
/// The most subscribers a run accepts.
const MAX_SUBSCRIBERS: usize = 2_000;
/// The most edits per subscriber count a run accepts.
const MAX_EDITS: usize = 5_000;

/// What one subscriber task reports.
enum Report {
    /// The subscriber's hello: the stream's offset when it connected.
    Hello { offset: u64 },
    /// An event with `offset` arrived at `at`.
    Event { offset: u64, at: Instant },
    /// The socket failed or closed.
    Closed { why: String },
}

/// The options of `run`.
struct RunOptions {
    /// `http://127.0.0.1:PORT`.
    address: String,
    /// The owner session id.
    session: String,
    /// Subscriber counts, one round each.
    subscribers: Vec<usize>,
    /// Edits per round.
    edits: usize,
    /// The text block edited.
    block: String,
    /// Pause between one edit's last delivery and the next edit.
    pace: Duration,
}

fn usage() -> ! {
    eprintln!(
        "usage:\n  edit_latency seed-session DATA_DIR SESSION_ID\n  edit_latency run --address http://127.0.0.1:PORT \
         --session ID [--subscribers 1,10,100] [--edits 200] [--block ID] [--pace-ms 5]"
    );
    std::process::exit(2)
}

fn parse_run(args: &[String]) -> Result<RunOptions, String> {
    let mut options = RunOptions {
        address: String::new(),
        session: String::new(),
        subscribers: vec![1, 10, 100],
        edits: 200,
        block: DEFAULT_BLOCK.to_string(),
        pace: Duration::from_millis(5),
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--address" => options.address = value.trim_end_matches('/').to_string(),
            "--session" => options.session = value.clone(),
            "--subscribers" => {
                options.subscribers = value
                    .split(',')
                    .map(|n| n.trim().parse::<usize>().ok().filter(|n| (1..=MAX_SUBSCRIBERS).contains(n)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("--subscribers takes counts from 1 to {MAX_SUBSCRIBERS}, comma-separated"))?
            }
            "--edits" => {
                options.edits = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_EDITS).contains(n))
                    .ok_or_else(|| format!("--edits takes a count from 1 to {MAX_EDITS}"))?
            }
            "--block" => options.block = value.clone(),
            "--pace-ms" => {
                options.pace = Duration::from_millis(value.parse().map_err(|_| "--pace-ms takes milliseconds")?)
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    options.address = live::loopback_address(&options.address).map_err(|e| format!("--address: {e}"))?;
    if options.session.is_empty() {
        return Err("--session is required".into());
    }
    Ok(options)
}

/// One subscriber: connects, reports its hello, then every event's offset and arrival.
async fn subscriber(request: Request, reports: mpsc::UnboundedSender<(usize, Report)>, id: usize) {
    let closed = |why: String| (id, Report::Closed { why });
    let mut socket = match tokio::time::timeout(CONNECT_DEADLINE, tokio_tungstenite::connect_async(request)).await {
        Ok(Ok((socket, _))) => socket,
        Ok(Err(e)) => return drop(reports.send(closed(format!("handshake: {e}")))),
        Err(_) => return drop(reports.send(closed("handshake timed out".into()))),
    };
    while let Some(frame) = socket.next().await {
        let at = Instant::now();
        let text = match frame {
            Ok(Message::Text(text)) => text,
            Ok(Message::Close(_)) | Err(_) => break,
            Ok(_) => continue,
        };
        let Ok(value) = serde_json::from_str::<Value>(&text) else { continue };
        let Some(offset) = value["offset"].as_u64() else { continue };
        let report = match value["type"].as_str() {
            Some("hello") => Report::Hello { offset },
            Some("event") => Report::Event { offset, at },
            Some(other) => Report::Closed { why: format!("unexpected {other} frame") },
            None => continue,
        };
        if reports.send((id, report)).is_err() {
            break;
        }
    }
    let _ = socket.close(None).await;
    let _ = reports.send(closed("the socket closed".into()));
}

/// Nearest-rank percentile of sorted `values` (NaN when there are none).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    live::percentile(sorted, p).unwrap_or(f64::NAN)
}

/// One round's figures.
struct Round {
    /// Subscribers.
    subscribers: usize,
    /// Edits applied.
    edits: usize,
    /// Deliveries timed.
    deliveries: usize,
    /// Deliveries that arrived before the 2xx was read.
    early: usize,
    /// 2xx → delivery, sorted (ms).
    after_ack: Vec<f64>,
    /// Request start → delivery, sorted (ms).
    after_send: Vec<f64>,
    /// Request start → 2xx, sorted (ms).
    ack: Vec<f64>,
}

async fn round(options: &RunOptions, editor: &Editor, n: usize) -> Result<Round, String> {
    let request = live::edits_stream_request(&options.address, &options.session)?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let tasks: Vec<_> = (0..n).map(|id| tokio::spawn(subscriber(request.clone(), tx.clone(), id))).collect();
    drop(tx);

    let mut hello: HashMap<usize, u64> = HashMap::new();
    let deadline = tokio::time::Instant::now() + CONNECT_DEADLINE;
    while hello.len() < n {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some((id, Report::Hello { offset }))) => {
                hello.insert(id, offset);
            }
            Ok(Some((id, Report::Closed { why }))) => return Err(format!("subscriber {id}: {why}")),
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => return Err(format!("only {} of {n} subscribers said hello", hello.len())),
        }
    }
    let base = *hello.values().max().unwrap_or(&0);
    if hello.values().any(|&o| o != base) {
        return Err("the stream moved while subscribers connected; run against a server nobody else edits".into());
    }

    let mut result = Round {
        subscribers: n,
        edits: options.edits,
        deliveries: 0,
        early: 0,
        after_ack: Vec::new(),
        after_send: Vec::new(),
        ack: Vec::new(),
    };
    for m in 0..options.edits {
        let expected = base + m as u64 + 1;
        let sent = Instant::now();
        editor
            .edit(&format!("<p>Latency run with {n} subscribers, edit {m}.</p>"))
            .await
            .map_err(|e| format!("edit {m}: {e}"))?;
        let acked = Instant::now();
        result.ack.push(acked.duration_since(sent).as_secs_f64() * 1e3);
        let mut got = 0;
        let deadline = tokio::time::Instant::now() + DELIVERY_DEADLINE;
        while got < n {
            match tokio::time::timeout_at(deadline, rx.recv()).await {
                Ok(Some((_, Report::Event { offset, at }))) if offset == expected => {
                    got += 1;
                    if at < acked {
                        result.early += 1;
                    }
                    result.after_ack.push(at.saturating_duration_since(acked).as_secs_f64() * 1e3);
                    result.after_send.push(at.duration_since(sent).as_secs_f64() * 1e3);
                }
                Ok(Some((id, Report::Event { offset, .. }))) => {
                    return Err(format!("subscriber {id} got offset {offset}, expected {expected}"))
                }
                Ok(Some((id, Report::Closed { why }))) => return Err(format!("subscriber {id}: {why}")),
                Ok(Some(_)) => {}
                Ok(None) | Err(_) => return Err(format!("edit {m}: only {got} of {n} deliveries within the deadline")),
            }
        }
        result.deliveries += got;
        tokio::time::sleep(options.pace).await;
    }
    for task in tasks {
        task.abort();
    }
    for v in [&mut result.after_ack, &mut result.after_send, &mut result.ack] {
        v.sort_by(f64::total_cmp);
    }
    Ok(result)
}

async fn run(options: RunOptions) -> Result<(), String> {
    let editor = Editor::new(&options.address, &options.session, &options.block).await?;
    let mut rounds = Vec::new();
    for &n in &options.subscribers {
        let r = round(&options, &editor, n).await?;
        println!(
            "RESULT subscribers={} edits={} deliveries={} early={} ack_p50_ms={:.2} after_ack_p50_ms={:.2} \
             after_ack_p99_ms={:.2} after_ack_max_ms={:.2} after_send_p50_ms={:.2} after_send_p99_ms={:.2} \
             after_send_max_ms={:.2}",
            r.subscribers,
            r.edits,
            r.deliveries,
            r.early,
            percentile(&r.ack, 0.5),
            percentile(&r.after_ack, 0.5),
            percentile(&r.after_ack, 0.99),
            r.after_ack.last().copied().unwrap_or(f64::NAN),
            percentile(&r.after_send, 0.5),
            percentile(&r.after_send, 0.99),
            r.after_send.last().copied().unwrap_or(f64::NAN),
        );
        rounds.push(r);
    }
    println!();
    println!("| subscribers | edits | deliveries | 2xx→event p50 | p99 | max | before the 2xx | request→event p50 | p99 | max | request→2xx p50 |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rounds {
        println!(
            "| {} | {} | {} | {:.2} ms | {:.2} ms | {:.2} ms | {} | {:.2} ms | {:.2} ms | {:.2} ms | {:.2} ms |",
            r.subscribers,
            r.edits,
            r.deliveries,
            percentile(&r.after_ack, 0.5),
            percentile(&r.after_ack, 0.99),
            r.after_ack.last().copied().unwrap_or(f64::NAN),
            r.early,
            percentile(&r.after_send, 0.5),
            percentile(&r.after_send, 0.99),
            r.after_send.last().copied().unwrap_or(f64::NAN),
            percentile(&r.ack, 0.5),
        );
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("seed-session") if args.len() == 3 => live::seed_session(&args[1], &args[2]).await,
        Some("run") => match parse_run(&args[1..]) {
            Ok(options) => run(options).await,
            Err(e) => Err(e),
        },
        _ => usage(),
    };
    if let Err(e) = outcome {
        eprintln!("edit_latency: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let values: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&values, 0.5), 50.0);
        assert_eq!(percentile(&values, 0.99), 99.0);
        assert_eq!(percentile(&[7.0], 0.99), 7.0);
        assert!(percentile(&[], 0.5).is_nan());
    }

    #[test]
    fn run_refuses_anything_but_loopback_and_bounded_counts() {
        let args = |extra: &[&str]| {
            let mut v: Vec<String> =
                ["--address", "http://127.0.0.1:8080", "--session", "s"].map(String::from).to_vec();
            v.extend(extra.iter().map(|s| s.to_string()));
            v
        };
        assert!(parse_run(&args(&[])).is_ok());
        assert!(parse_run(&args(&["--address", "http://10.0.0.1:80"])).is_err());
        assert!(parse_run(&args(&["--subscribers", "0"])).is_err());
        assert!(parse_run(&args(&["--subscribers", "1,99999"])).is_err());
        assert!(parse_run(&args(&["--edits", "0"])).is_err());
        assert_eq!(parse_run(&args(&["--subscribers", "2, 3"])).map(|o| o.subscribers), Ok(vec![2, 3]));
    }
}
