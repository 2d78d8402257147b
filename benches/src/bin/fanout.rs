//! Fan-out of one event stream to N websocket subscribers at a fixed event rate, against
//! Veranda's edits stream or against Pushpin (`benches/load/fanout.sh` runs both in one run).
//!
//! ```text
//! fanout seed-session DATA_DIR SESSION_ID   # an owner session, before the server opens DATA_DIR
//! fanout veranda --address http://127.0.0.1:PORT --session SESSION_ID [--producer edit] [common options]
//! fanout veranda --address http://127.0.0.1:PORT --session SESSION_ID --producer direct \
//!     --redis-url redis://127.0.0.1:REDIS_PORT/ [common options]
//! fanout pushpin --address http://127.0.0.1:PUSHPIN_PORT --publish http://127.0.0.1:PUBLISH_PORT \
//!     [--channel bench] [--payload-bytes 300] [common options]
//! common: [--subscribers 1000] [--rate 100] [--seconds 10] [--rss-pid PID]
//! ```
//!
//! A run opens N websockets (at most [`CONNECTING_AT_ONCE`] handshakes at a time) and waits
//! until every one is subscribed: on Veranda each socket's `hello`; on Pushpin each socket's
//! first warm-up message, published every 250 ms until all have one. Then it produces
//! `rate × seconds` events one after another on a fixed clock: on Veranda, with `--producer
//! edit` (the default), a real content edit (`PUT /api/content/blocks/{id}`, the event is the
//! server's edit event, published once the edit is on disk); with `--producer direct`, an
//! edit event published on the stream's shared Redis log by the same code another instance
//! runs ([`SharedLog::publish`]), which the server (started with that `--redis-url`) follows
//! and fans out: the fan-out measured without the edit path. On Pushpin one `POST /publish/`
//! of a `ws-message` padded to the size of Veranda's event frame. An event is produced only
//! after the previous one's answer, so a producer slower than the rate lowers the achieved
//! rate (printed) instead of piling up.
//!
//! Latency is from the moment the event's request was started to the moment a subscriber
//! read the frame, on one clock (the same process). Veranda's frames name their event by
//! offset (the hello's offset plus one per edit); Pushpin's payload carries its sequence
//! number and its send time. Deliveries still missing 5 s after the last one arrived (or
//! 30 s after the last event) are counted as missing. With `--rss-pid`, the resident memory
//! of that process and its descendants is sampled before the sockets open and every 250 ms
//! until the end (peak printed), and the CPU time (user + system) of the same processes
//! from just before the first event to the end of the run is divided by the deliveries
//! received: the server's CPU time per delivered frame, which other load on the machine
//! barely changes. Only loopback addresses are accepted.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::StreamExt;
use tokio::sync::{watch, Semaphore};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::handshake::client::Request;
use tokio_tungstenite::tungstenite::Message;
use veranda_actors::streams::{EditEvent, SharedLog, StreamLimits, StreamName};
use veranda_actors::telemetry::records::now_ms;
use veranda_benches::live::{self, Editor, DEFAULT_BLOCK};

/// The most websocket handshakes in flight at once.
const CONNECTING_AT_ONCE: usize = 128;
/// The longest wait for every subscriber to be subscribed.
const SUBSCRIBE_DEADLINE: Duration = Duration::from_secs(180);
/// How long the run waits for deliveries after the last one arrived.
const DRAIN_QUIET: Duration = Duration::from_secs(5);
/// The longest wait for deliveries after the last event was produced.
const DRAIN_DEADLINE: Duration = Duration::from_secs(30);
/// The most subscribers a run accepts.
const MAX_SUBSCRIBERS: usize = 20_000;
/// The most events per second a run accepts.
const MAX_RATE: u32 = 1_000;
/// The longest run accepted, in seconds.
const MAX_SECONDS: u32 = 60;
/// Largest padded Pushpin payload accepted, in bytes.
const MAX_PAYLOAD: usize = 64 * 1024;
/// Clock ticks per second of the process times in `/proc/PID/stat` (Linux's `USER_HZ`, 100
/// on every architecture it supports).
const CLOCK_TICKS_PER_SEC: u64 = 100;

/// Which server delivers the events.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    /// `veranda serve`'s edits stream.
    Veranda,
    /// Pushpin, websocket-over-HTTP to a GRIP origin (`grip_origin`).
    Pushpin,
}

/// What makes Veranda's events.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Source {
    /// Content edits through the API (durable before their event is published).
    Edit,
    /// Events published straight on the stream's shared Redis log.
    Direct,
}

/// The options of a run.
#[derive(Debug)]
struct Options {
    /// Which server.
    side: Side,
    /// Veranda: what makes the events.
    source: Source,
    /// Veranda with `--producer direct`: `redis://127.0.0.1:PORT/`, the server's `--redis-url`.
    redis_url: String,
    /// `http://127.0.0.1:PORT` of the server the subscribers connect to.
    address: String,
    /// Veranda: the owner session id.
    session: String,
    /// Veranda: the text block edited.
    block: String,
    /// Pushpin: `http://127.0.0.1:PORT` of its publish endpoint.
    publish: String,
    /// Pushpin: the channel the origin subscribes sockets to.
    channel: String,
    /// Pushpin: the size of each message, in bytes.
    payload_bytes: usize,
    /// Websocket subscribers.
    subscribers: usize,
    /// Events per second.
    rate: u32,
    /// Seconds of events.
    seconds: u32,
    /// The server process whose memory and CPU time (with its descendants') are sampled.
    rss_pid: Option<u32>,
}

fn usage() -> ! {
    eprintln!(
        "usage:\n  fanout seed-session DATA_DIR SESSION_ID\n  fanout veranda --address http://127.0.0.1:PORT --session ID [--block ID] \
         [--producer edit|direct] [--redis-url redis://127.0.0.1:PORT/] [common]\n  \
         fanout pushpin --address http://127.0.0.1:PORT --publish http://127.0.0.1:PORT [--channel NAME] \
         [--payload-bytes N] [common]\n  common: [--subscribers N] [--rate PER_SECOND] [--seconds N] [--rss-pid PID]"
    );
    std::process::exit(2)
}

/// A whole number within `range`, or why not.
fn bounded<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    flag: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String> {
    value
        .parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| format!("{flag} takes a whole number from {} to {}", range.start(), range.end()))
}

fn parse(args: &[String]) -> Result<Options, String> {
    let side = match args.first().map(String::as_str) {
        Some("veranda") => Side::Veranda,
        Some("pushpin") => Side::Pushpin,
        _ => return Err("the first argument is veranda or pushpin".into()),
    };
    let mut options = Options {
        side,
        source: Source::Edit,
        redis_url: String::new(),
        address: String::new(),
        session: String::new(),
        block: DEFAULT_BLOCK.to_string(),
        publish: String::new(),
        channel: "bench".to_string(),
        payload_bytes: 300,
        subscribers: 1_000,
        rate: 100,
        seconds: 10,
        rss_pid: None,
    };
    let mut it = args[1..].iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--address" => options.address = live::loopback_address(value).map_err(|e| format!("--address: {e}"))?,
            "--session" => options.session = value.clone(),
            "--block" => options.block = value.clone(),
            "--producer" => {
                options.source = match value.as_str() {
                    "edit" => Source::Edit,
                    "direct" => Source::Direct,
                    _ => return Err("--producer is edit or direct".into()),
                }
            }
            "--redis-url" => options.redis_url = loopback_redis(value)?,
            "--publish" => options.publish = live::loopback_address(value).map_err(|e| format!("--publish: {e}"))?,
            "--channel" => options.channel = value.clone(),
            "--payload-bytes" => options.payload_bytes = bounded(flag, value, 64..=MAX_PAYLOAD)?,
            "--subscribers" => options.subscribers = bounded(flag, value, 1..=MAX_SUBSCRIBERS)?,
            "--rate" => options.rate = bounded(flag, value, 1..=MAX_RATE)?,
            "--seconds" => options.seconds = bounded(flag, value, 1..=MAX_SECONDS)?,
            "--rss-pid" => options.rss_pid = Some(bounded(flag, value, 1..=u32::MAX)?),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.address.is_empty() {
        return Err("--address is required".into());
    }
    match side {
        Side::Veranda if options.session.is_empty() => Err("--session is required for veranda".into()),
        Side::Veranda if options.source == Source::Direct && options.redis_url.is_empty() => {
            Err("--producer direct needs --redis-url (the server's)".into())
        }
        Side::Pushpin if options.source == Source::Direct => Err("--producer is for veranda only".into()),
        Side::Pushpin if options.publish.is_empty() => Err("--publish is required for pushpin".into()),
        _ => Ok(options),
    }
}

/// Checks that `url` is `redis://127.0.0.1:PORT[/DB]` (loopback only).
fn loopback_redis(url: &str) -> Result<String, String> {
    let rest = url.strip_prefix("redis://127.0.0.1:").ok_or("--redis-url must be redis://127.0.0.1:PORT/")?;
    let port = rest.split('/').next().unwrap_or_default();
    port.parse::<u16>().map_err(|_| format!("--redis-url {url}: the port is not a number"))?;
    Ok(url.to_string())
}

/// What every subscriber task shares with the producer.
struct Shared {
    /// The run's clock.
    start: Instant,
    /// Send time of event `seq` in µs after `start`, plus one (0: not produced yet).
    sent: Vec<AtomicU64>,
    /// Subscribers subscribed (hello or first warm-up received).
    ready: AtomicUsize,
    /// Deliveries of produced events received, all subscribers together.
    received: AtomicU64,
    /// Sockets that failed or were closed by the server before the end.
    closed: AtomicUsize,
    /// The first reason a socket failed.
    first_failure: Mutex<Option<String>>,
    /// Size of the first event frame received, in bytes.
    frame_bytes: AtomicUsize,
    /// Frames that named an event out of order or not produced.
    unexpected: AtomicU64,
}

impl Shared {
    fn fail(&self, why: String) {
        self.closed.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_failure.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(why);
    }

    fn micros(&self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
}

/// The whole number after `"key":` in `text`.
fn number_after(text: &str, key: &str) -> Option<u64> {
    let at = text.find(key)? + key.len();
    let digits = text[at..].bytes().take_while(u8::is_ascii_digit).count();
    text[at..at + digits].parse().ok()
}

/// What a subscriber makes of one text frame.
#[derive(Debug, PartialEq)]
enum Frame {
    /// Subscribed; on Veranda with the stream's offset at that moment.
    Ready { offset: u64 },
    /// Event number `seq` (0-based) of the run, or an offset to resolve against the hello.
    Event { number: u64 },
    /// Anything else.
    Other,
}

fn read_frame(side: Side, text: &str) -> Frame {
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

/// One subscriber: connects, then times every event it reads until `stop`; returns the
/// latencies in µs.
async fn subscriber(
    side: Side,
    request: Request,
    shared: Arc<Shared>,
    gate: Arc<Semaphore>,
    mut stop: watch::Receiver<bool>,
) -> Vec<u32> {
    let mut latencies = Vec::new();
    let socket = {
        let Ok(_permit) = gate.acquire().await else { return latencies };
        match tokio::time::timeout(Duration::from_secs(60), tokio_tungstenite::connect_async(request)).await {
            Ok(Ok((socket, _))) => socket,
            Ok(Err(e)) => {
                shared.fail(format!("handshake: {e}"));
                return latencies;
            }
            Err(_) => {
                shared.fail("handshake timed out".into());
                return latencies;
            }
        }
    };
    let (_sink, mut frames) = socket.split();
    let mut base: Option<u64> = None;
    let mut next_expected = 0u64;
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
                break;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                shared.fail(format!("read: {e}"));
                break;
            }
            None => {
                shared.fail("the socket ended".into());
                break;
            }
        };
        match read_frame(side, &text) {
            Frame::Ready { offset } => {
                if base.is_none() {
                    base = Some(offset);
                    shared.ready.fetch_add(1, Ordering::Relaxed);
                }
            }
            Frame::Event { number } => {
                // Veranda numbers events by stream offset: the run's first edit is hello + 1.
                let seq = match (side, base) {
                    (Side::Veranda, Some(base)) if number > base => number - base - 1,
                    (Side::Pushpin, _) => number,
                    _ => {
                        shared.unexpected.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                };
                let sent = shared.sent.get(seq as usize).map_or(0, |s| s.load(Ordering::Acquire));
                if sent == 0 || seq < next_expected {
                    shared.unexpected.fetch_add(1, Ordering::Relaxed);
                    continue;
                }
                next_expected = seq + 1;
                let _ = shared.frame_bytes.compare_exchange(0, text.len(), Ordering::Relaxed, Ordering::Relaxed);
                latencies.push(at.saturating_sub(sent - 1).min(u32::MAX as u64) as u32);
                shared.received.fetch_add(1, Ordering::Relaxed);
            }
            Frame::Other => {}
        }
    }
    latencies
}

/// The fields of `/proc/{pid}/stat` after the command name (which may hold spaces), from
/// the state on: field `n` of proc(5) is at index `n - 3`.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = stat.rsplit_once(')')?.1;
    Some(rest.split_whitespace().map(str::to_string).collect())
}

/// `root` and every process descending from it (`root` first), from /proc.
fn process_tree(root: u32) -> Vec<u32> {
    let mut parents = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if let Some(ppid) = stat_fields(pid).and_then(|f| f.get(1).and_then(|p| p.parse::<u32>().ok())) {
            parents.push((pid, ppid));
        }
    }
    let mut tree = vec![root];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(parents.iter().filter(|(_, ppid)| *ppid == parent).map(|(pid, _)| *pid));
        i += 1;
    }
    tree
}

/// Resident memory (KiB) of `root` and every process descending from it, from /proc.
fn rss_tree_kib(root: u32) -> Option<u64> {
    let rss = |pid: u32| -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let tree = process_tree(root);
    let root_rss = rss(root)?;
    Some(root_rss + tree[1..].iter().filter_map(|&pid| rss(pid)).sum::<u64>())
}

/// CPU time (user + system, ms) used so far by `root` and every process descending from it
/// (`utime` and `stime`, fields 14 and 15 of `/proc/PID/stat`, in clock ticks).
fn cpu_tree_ms(root: u32) -> Option<u64> {
    let ticks = |pid: u32| -> Option<u64> {
        let fields = stat_fields(pid)?;
        Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
    };
    let tree = process_tree(root);
    let root_ticks = ticks(root)?;
    let total = root_ticks + tree[1..].iter().filter_map(|&pid| ticks(pid)).sum::<u64>();
    Some(total * 1000 / CLOCK_TICKS_PER_SEC)
}

/// Produces events on Veranda (edits or shared-log publishes) or Pushpin (publishes).
enum Producer {
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
    async fn produce(&self, seq: u64) -> Result<(), String> {
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
    async fn warm_up(&self) -> Result<(), String> {
        self.publish(r#"{"warm":1}"#.to_string()).await
    }

    async fn publish(&self, content: String) -> Result<(), String> {
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
fn direct_event() -> serde_json::Value {
    let event = EditEvent {
        name: "UserSavesBlockContent".into(),
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

/// What a run measured.
struct Outcome {
    /// Events produced.
    sent: u64,
    /// Seconds the producer took.
    producing_secs: f64,
    /// Subscribers subscribed before the first event.
    ready: usize,
    /// Deliveries received.
    received: u64,
    /// Sockets closed or failed before the end.
    closed: usize,
    /// Frames naming an unexpected event.
    unexpected: u64,
    /// Sorted latencies, µs.
    latencies: Vec<u32>,
    /// Sorted producer request times, µs.
    produce: Vec<u32>,
    /// Event frame size.
    frame_bytes: usize,
    /// Memory before the sockets opened, and the peak, KiB.
    rss: Option<(u64, u64)>,
    /// The server's CPU time from just before the first event to the end, ms.
    cpu_ms: Option<u64>,
    /// The first socket failure.
    first_failure: Option<String>,
}

async fn run(options: &Options) -> Result<Outcome, String> {
    let events = (options.rate * options.seconds) as usize;
    let (producer, request) = match (options.side, options.source) {
        (Side::Veranda, Source::Edit) => (
            Producer::Veranda(Editor::new(&options.address, &options.session, &options.block).await?),
            live::edits_stream_request(&options.address, &options.session)?,
        ),
        (Side::Veranda, Source::Direct) => (
            Producer::Direct(Box::new(
                SharedLog::open(&options.redis_url, StreamName::Edits, &StreamLimits::default())
                    .map_err(|e| format!("--redis-url: {e}"))?,
            )),
            live::edits_stream_request(&options.address, &options.session)?,
        ),
        (Side::Pushpin, _) => (
            Producer::Pushpin {
                http: reqwest::Client::new(),
                url: format!("{}/publish/", options.publish),
                channel: options.channel.clone(),
                payload_bytes: options.payload_bytes,
            },
            format!("{}/stream", options.address.replacen("http://", "ws://", 1))
                .into_client_request()
                .map_err(|e| e.to_string())?,
        ),
    };
    let shared = Arc::new(Shared {
        start: Instant::now(),
        sent: (0..events).map(|_| AtomicU64::new(0)).collect(),
        ready: AtomicUsize::new(0),
        received: AtomicU64::new(0),
        closed: AtomicUsize::new(0),
        first_failure: Mutex::new(None),
        frame_bytes: AtomicUsize::new(0),
        unexpected: AtomicU64::new(0),
    });

    // Memory: before the sockets open, then the peak, sampled every 250 ms.
    let rss_idle = options.rss_pid.and_then(rss_tree_kib);
    let rss_peak = Arc::new(AtomicU64::new(rss_idle.unwrap_or(0)));
    let sampler = options.rss_pid.map(|pid| {
        let peak = rss_peak.clone();
        tokio::spawn(async move {
            loop {
                let rss = tokio::task::spawn_blocking(move || rss_tree_kib(pid)).await.ok().flatten();
                peak.fetch_max(rss.unwrap_or(0), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    });

    let (stop_tx, stop_rx) = watch::channel(false);
    let gate = Arc::new(Semaphore::new(CONNECTING_AT_ONCE));
    let tasks: Vec<_> = (0..options.subscribers)
        .map(|_| tokio::spawn(subscriber(options.side, request.clone(), shared.clone(), gate.clone(), stop_rx.clone())))
        .collect();

    let deadline = Instant::now() + SUBSCRIBE_DEADLINE;
    let mut last_warm_up = Instant::now() - Duration::from_secs(1);
    while shared.ready.load(Ordering::Relaxed) + shared.closed.load(Ordering::Relaxed) < options.subscribers {
        if Instant::now() > deadline {
            break;
        }
        if options.side == Side::Pushpin && last_warm_up.elapsed() >= Duration::from_millis(250) {
            producer.warm_up().await?;
            last_warm_up = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let ready = shared.ready.load(Ordering::Relaxed);
    eprintln!(
        "[fanout] {ready} of {} subscribers ready after {:.1} s",
        options.subscribers,
        shared.start.elapsed().as_secs_f64()
    );
    if ready == 0 {
        let why = shared.first_failure.lock().unwrap_or_else(|e| e.into_inner()).clone();
        return Err(format!("no subscriber got subscribed ({})", why.unwrap_or_else(|| "no failure seen".into())));
    }
    // Pushpin: let warm-ups still in flight arrive before the first event.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut produce = Vec::with_capacity(events);
    let period = Duration::from_secs_f64(1.0 / f64::from(options.rate));
    let mut clock = tokio::time::interval(period);
    clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let cpu_before = options.rss_pid.and_then(cpu_tree_ms);
    let producing = Instant::now();
    for seq in 0..events {
        clock.tick().await;
        let started = shared.micros();
        shared.sent[seq].store(started + 1, Ordering::Release);
        producer.produce(seq as u64).await.map_err(|e| format!("event {seq}: {e}"))?;
        produce.push((shared.micros() - started).min(u32::MAX as u64) as u32);
    }
    let producing_secs = producing.elapsed().as_secs_f64();

    let expected = events as u64 * ready as u64;
    let drain_end = Instant::now() + DRAIN_DEADLINE;
    let (mut last_count, mut last_change) = (0, Instant::now());
    loop {
        let count = shared.received.load(Ordering::Relaxed);
        if count >= expected || Instant::now() > drain_end || last_change.elapsed() > DRAIN_QUIET {
            break;
        }
        if count != last_count {
            (last_count, last_change) = (count, Instant::now());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let cpu_ms = options.rss_pid.and_then(cpu_tree_ms).zip(cpu_before).map(|(after, before)| after - before);
    let _ = stop_tx.send(true);
    let mut latencies = Vec::with_capacity(expected as usize);
    for task in tasks {
        latencies.extend(task.await.map_err(|e| e.to_string())?);
    }
    if let Some(sampler) = sampler {
        sampler.abort();
    }
    latencies.sort_unstable();
    produce.sort_unstable();
    let first_failure = shared.first_failure.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Ok(Outcome {
        sent: events as u64,
        producing_secs,
        ready,
        received: latencies.len() as u64,
        closed: shared.closed.load(Ordering::Relaxed),
        unexpected: shared.unexpected.load(Ordering::Relaxed),
        latencies,
        produce,
        frame_bytes: shared.frame_bytes.load(Ordering::Relaxed),
        rss: rss_idle.map(|idle| (idle, rss_peak.load(Ordering::Relaxed))),
        cpu_ms,
        first_failure,
    })
}

fn ms(micros: Option<u32>) -> String {
    micros.map_or("nan".into(), |m| format!("{:.2}", f64::from(m) / 1e3))
}

fn report(options: &Options, o: &Outcome) {
    let (side, producer) = match (options.side, options.source) {
        (Side::Veranda, Source::Edit) => ("veranda", "edit"),
        (Side::Veranda, Source::Direct) => ("veranda", "direct"),
        (Side::Pushpin, _) => ("pushpin", "publish"),
    };
    let (cpu_ms, cpu_us_per_frame) = o.cpu_ms.map_or(("nan".into(), "nan".into()), |cpu| {
        (cpu.to_string(), format!("{:.2}", cpu as f64 * 1e3 / o.received.max(1) as f64))
    });
    let (rss_idle, rss_peak) = o.rss.map_or(("nan".into(), "nan".into()), |(idle, peak)| {
        (format!("{:.1}", idle as f64 / 1024.0), format!("{:.1}", peak as f64 / 1024.0))
    });
    println!(
        "RESULT side={side} producer={producer} subscribers={} ready={} rate={} seconds={} events={} achieved_rate={:.1} expected={} \
         received={} missing={} closed={} unexpected={} p50_ms={} p99_ms={} max_ms={} produce_p50_ms={} \
         produce_p99_ms={} frame_bytes={} rss_idle_mib={rss_idle} rss_peak_mib={rss_peak} cpu_ms={cpu_ms} \
         cpu_us_per_frame={cpu_us_per_frame}",
        options.subscribers,
        o.ready,
        options.rate,
        options.seconds,
        o.sent,
        o.sent as f64 / o.producing_secs.max(1e-9),
        o.sent * o.ready as u64,
        o.received,
        (o.sent * o.ready as u64).saturating_sub(o.received),
        o.closed,
        o.unexpected,
        ms(live::percentile(&o.latencies, 0.5)),
        ms(live::percentile(&o.latencies, 0.99)),
        ms(o.latencies.last().copied()),
        ms(live::percentile(&o.produce, 0.5)),
        ms(live::percentile(&o.produce, 0.99)),
        o.frame_bytes,
    );
    if let Some(why) = &o.first_failure {
        eprintln!("[fanout] first socket failure: {why}");
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("seed-session") {
        let [_, data_dir, session] = args.as_slice() else { usage() };
        if let Err(e) = live::seed_session(data_dir, session).await {
            eprintln!("fanout: {e}");
            std::process::exit(1)
        }
        return;
    }
    let options = match parse(&args) {
        Ok(options) => options,
        Err(e) if args.is_empty() => {
            eprintln!("fanout: {e}");
            usage()
        }
        Err(e) => {
            eprintln!("fanout: {e}");
            std::process::exit(2)
        }
    };
    match run(&options).await {
        Ok(outcome) => report(&options, &outcome),
        Err(e) => {
            eprintln!("fanout: {e}");
            std::process::exit(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_are_loopback_and_bounded() {
        let veranda = ["veranda", "--address", "http://127.0.0.1:8080", "--session", "s"];
        assert!(parse(&args(&veranda)).is_ok());
        assert!(parse(&args(&["veranda", "--address", "http://127.0.0.1:8080"])).is_err());
        assert!(parse(&args(&["veranda", "--address", "http://192.168.1.2:80", "--session", "s"])).is_err());
        let mut too_many = args(&veranda);
        too_many.extend(args(&["--subscribers", "20001"]));
        assert!(parse(&too_many).is_err());
        let mut zero_rate = args(&veranda);
        zero_rate.extend(args(&["--rate", "0"]));
        assert!(parse(&zero_rate).is_err());
        assert!(parse(&args(&["pushpin", "--address", "http://127.0.0.1:7999"])).is_err());
        let pushpin = parse(&args(&[
            "pushpin",
            "--address",
            "http://127.0.0.1:7999",
            "--publish",
            "http://127.0.0.1:5561",
            "--payload-bytes",
            "400",
        ]))
        .unwrap();
        assert_eq!((pushpin.side, pushpin.payload_bytes), (Side::Pushpin, 400));
        assert!(parse(&args(&["nginx"])).is_err());
    }

    #[test]
    fn the_direct_producer_needs_a_loopback_redis_url_and_veranda() {
        let veranda = args(&["veranda", "--address", "http://127.0.0.1:8080", "--session", "s"]);
        let with = |extra: &[&str]| {
            let mut list = veranda.clone();
            list.extend(args(extra));
            parse(&list)
        };
        assert_eq!(with(&[]).unwrap().source, Source::Edit);
        assert!(with(&["--producer", "direct"]).unwrap_err().contains("--redis-url"));
        let direct = with(&["--producer", "direct", "--redis-url", "redis://127.0.0.1:6390/"]).unwrap();
        assert_eq!((direct.source, direct.redis_url.as_str()), (Source::Direct, "redis://127.0.0.1:6390/"));
        assert!(with(&["--producer", "direct", "--redis-url", "redis://10.0.0.2:6379/"]).is_err());
        assert!(with(&["--producer", "direct", "--redis-url", "redis://127.0.0.1:x/"]).is_err());
        assert!(with(&["--producer", "push"]).unwrap_err().contains("edit or direct"));
        let pushpin = ["pushpin", "--address", "http://127.0.0.1:1", "--publish", "http://127.0.0.1:2"];
        let mut direct_pushpin = args(&pushpin);
        direct_pushpin.extend(args(&["--producer", "direct", "--redis-url", "redis://127.0.0.1:3/"]));
        assert!(parse(&direct_pushpin).is_err());
    }

    #[test]
    fn the_direct_event_is_an_edit_event_of_an_edits_frame_size() {
        let data = direct_event();
        assert_eq!(data["name"], "UserSavesBlockContent");
        assert_eq!(data["paths"][0], "/about");
        let stored = veranda_actors::streams::StoredEvent {
            epoch: "m1abcdefghijklmn".into(),
            offset: 12_345,
            at: 1_800_000_000_000,
            data,
        };
        let frame = veranda_actors::streams::Frame::event(StreamName::Edits, &stored).to_json();
        assert!((250..=350).contains(&frame.len()), "{} bytes: {frame}", frame.len());
    }

    #[test]
    fn frames_are_read_by_their_leading_fields() {
        let hello = r#"{"type":"hello","stream":"edits","epoch":"e","offset":41}"#;
        let event = r#"{"type":"event","stream":"edits","epoch":"e","offset":42,"at":1,"data":{"offset":7}}"#;
        assert_eq!(read_frame(Side::Veranda, hello), Frame::Ready { offset: 41 });
        assert_eq!(read_frame(Side::Veranda, event), Frame::Event { number: 42 });
        assert_eq!(read_frame(Side::Veranda, r#"{"type":"reset","offset":3}"#), Frame::Other);
        assert_eq!(read_frame(Side::Pushpin, r#"{"warm":1}"#), Frame::Ready { offset: 0 });
        assert_eq!(read_frame(Side::Pushpin, r#"{"seq":17,"sent":5,"pad":"xx"}"#), Frame::Event { number: 17 });
        assert_eq!(read_frame(Side::Pushpin, event), Frame::Other);
    }

    #[test]
    fn the_memory_and_cpu_time_of_this_process_are_readable() {
        let rss = rss_tree_kib(std::process::id()).unwrap();
        assert!(rss > 0);
        let before = cpu_tree_ms(std::process::id()).unwrap();
        let spin = Instant::now();
        let mut x = 0u64;
        while spin.elapsed() < Duration::from_millis(60) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let after = cpu_tree_ms(std::process::id()).unwrap();
        assert!(after >= before + 20, "{before} → {after} ms after spinning 60 ms");
        assert!(cpu_tree_ms(u32::MAX).is_none());
    }
}
