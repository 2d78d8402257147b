//! Fan-out of one event stream to N websocket subscribers at a fixed event rate, against
//! Veranda's edits stream or against Pushpin (`benches/load/fanout.sh` runs both in one run).
//!
//! ```text
//! fanout seed-session DATA_DIR|REDIS_URL SESSION_ID   # an owner session, before the server starts
//! fanout veranda --address http://127.0.0.1:PORT --session SESSION_ID [--producer edit] [common options]
//! fanout veranda --address http://127.0.0.1:PORT --session SESSION_ID --producer direct \
//!     --redis-url redis://127.0.0.1:REDIS_PORT/ [common options]
//! fanout veranda --address http://127.0.0.1:PORT1,http://127.0.0.1:PORT2 --session SESSION_ID \
//!     --producer direct --redis-url redis://127.0.0.1:REDIS_PORT/ --rss-pid PID1,PID2 [common options]
//! fanout pushpin --address http://127.0.0.1:PUSHPIN_PORT --publish http://127.0.0.1:PUBLISH_PORT \
//!     [--channel bench] [--payload-bytes 300] [common options]
//! common: [--subscribers 1000] [--rate 100] [--seconds 10] [--rss-pid PID[,PID2]]
//! ```
//!
//! With several addresses (instances of one site sharing one Redis) the subscribers are
//! split evenly over them, in turn; the events are produced once (the direct producer
//! appends them to the shared log every instance follows). The result then gives the
//! delivered frames per second in total and per instance, and, with one `--rss-pid` per
//! address, each instance's memory and CPU time (summed for the CPU time per frame).
//!
//! A run opens N websockets (at most [`CONNECTING_AT_ONCE`] handshakes at a time) and waits
//! until every one is subscribed: on Veranda each socket's `hello`; on Pushpin, once every
//! handshake is done, one warm-up message is published, and a socket is subscribed when it
//! has it ([`WARM_UP_WAIT`] at most). Then it produces `rate × seconds` events on a fixed
//! clock: on Veranda, with `--producer
//! edit` (the default), a real content edit (`PUT /api/content/blocks/{id}`, the event is the
//! server's edit event, published once the edit is on disk); with `--producer direct`, an
//! edit event published on the stream's shared Redis log by the same code another instance
//! runs ([`SharedLog::publish`]), which the server (started with that `--redis-url`) follows
//! and fans out: the fan-out measured without the edit path. On Pushpin one `POST /publish/`
//! of a `ws-message` padded to the size of Veranda's event frame. With `--schedule closed`
//! (the default) an event is produced only after the previous one's answer, so a producer
//! slower than the rate lowers the achieved rate (printed) instead of piling up; with
//! `--schedule open` each event is produced at its due time whatever happened to the previous
//! ones (at most [`MAX_IN_FLIGHT`] at once), and its latency counts from that due time, so a
//! server that falls behind shows it in the latency (the sweep of fixed rates uses this).
//!
//! Deliveries missing on sockets that stayed open are `lost`; a socket that the server
//! closed (or that failed) is counted in `closed`, and what it missed in `closed_missing`,
//! apart from the lost ones.
//!
//! Latency is from the moment the event's request was started (open loop: its due time) to
//! the moment a subscriber read the frame, on one clock (the same process). Veranda's
//! frames name their event by offset (the hello's offset plus one per edit); Pushpin's
//! payload carries its sequence number and its send time. Deliveries still missing 5 s after
//! the last one arrived (or 30 s after the last event) are counted as missing. With
//! `--rss-pid`, the resident memory of that process and its descendants is sampled before the
//! sockets open and every 250 ms until the end (peak printed), and the CPU time (user +
//! system) of the same processes from just before the first event to the end of the run is
//! divided by the deliveries received: the server's CPU time per delivered frame, which
//! other load on the machine barely changes. Only loopback addresses are accepted.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Semaphore};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use veranda_actors::store::redis_store::DEFAULT_KEY_PREFIX;
use veranda_actors::streams::{SharedLog, StreamLimits, StreamName};
use veranda_benches::live::{self, Editor};

mod instances;
mod options;
mod procfs;
mod producer;
mod subscribers;

use instances::*;
use options::*;
#[cfg(test)]
use procfs::*;
use producer::*;
use subscribers::*;

/// The most websocket handshakes in flight at once.
const CONNECTING_AT_ONCE: usize = 128;
/// The longest wait, after the handshakes, for every socket's hello (Veranda) or the one
/// warm-up message (Pushpin).
const WARM_UP_WAIT: Duration = Duration::from_secs(10);
/// The most events being produced at once with `--schedule open`.
const MAX_IN_FLIGHT: usize = 256;
/// The longest wait for every subscriber to be subscribed.
const SUBSCRIBE_DEADLINE: Duration = Duration::from_secs(180);
/// How long the run waits for deliveries after the last one arrived.
const DRAIN_QUIET: Duration = Duration::from_secs(5);
/// The longest wait for deliveries after the last event was produced.
const DRAIN_DEADLINE: Duration = Duration::from_secs(30);
/// The most instances a run's subscribers are split over.
const MAX_INSTANCES: usize = 8;
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
    /// Deliveries missing on subscribed sockets that stayed open.
    lost: u64,
    /// Deliveries missing on subscribed sockets that were closed or failed.
    closed_missing: u64,
    /// Frames naming an unexpected event.
    unexpected: u64,
    /// Sorted latencies, µs.
    latencies: Vec<u32>,
    /// Sorted producer request times, µs.
    produce: Vec<u32>,
    /// Event frame size.
    frame_bytes: usize,
    /// Deliveries received per instance.
    received_per: Vec<u64>,
    /// Seconds from the first event's start to the last delivery.
    delivery_secs: f64,
    /// What each measured instance used (memory, CPU time from just before the first
    /// event to the end); empty when none is measured.
    usage: Vec<Usage>,
    /// The first socket failure.
    first_failure: Option<String>,
}

async fn run(options: &Options) -> Result<Outcome, String> {
    let events = (options.rate * options.seconds) as usize;
    let edits_requests = || -> Result<Vec<_>, String> {
        options.addresses.iter().map(|address| live::edits_stream_request(address, &options.session)).collect()
    };
    let (producer, requests) = match (options.side, options.source) {
        (Side::Veranda, Source::Edit) => (
            Producer::Veranda(Editor::new(&options.address, &options.session, &options.block).await?),
            edits_requests()?,
        ),
        (Side::Veranda, Source::Direct) => (
            Producer::Direct(Box::new(
                SharedLog::open(&options.redis_url, DEFAULT_KEY_PREFIX, StreamName::Edits, &StreamLimits::default())
                    .map_err(|e| format!("--redis-url: {e}"))?,
            )),
            edits_requests()?,
        ),
        (Side::Pushpin, _) => (
            Producer::Pushpin {
                http: reqwest::Client::new(),
                url: format!("{}/publish/", options.publish),
                channel: options.channel.clone(),
                payload_bytes: options.payload_bytes,
            },
            vec![format!("{}/stream", options.address.replacen("http://", "ws://", 1))
                .into_client_request()
                .map_err(|e| e.to_string())?],
        ),
    };
    let shared = Arc::new(Shared {
        start: Instant::now(),
        sent: (0..events).map(|_| AtomicU64::new(0)).collect(),
        connected: AtomicUsize::new(0),
        ready: AtomicUsize::new(0),
        received: AtomicU64::new(0),
        closed: AtomicUsize::new(0),
        first_failure: Mutex::new(None),
        frame_bytes: AtomicUsize::new(0),
        unexpected: AtomicU64::new(0),
        last_frame: AtomicU64::new(0),
    });

    // Memory: before the sockets open, then the peak, sampled every 250 ms.
    let mut meters = Meters::start(&options.rss_pids);

    let (stop_tx, stop_rx) = watch::channel(false);
    let gate = Arc::new(Semaphore::new(CONNECTING_AT_ONCE));
    let tasks: Vec<_> = (0..options.subscribers)
        .map(|n| {
            let request = requests[instance_of(n, requests.len())].clone();
            tokio::spawn(subscriber(options.side, request, shared.clone(), gate.clone(), stop_rx.clone()))
        })
        .collect();

    let deadline = Instant::now() + SUBSCRIBE_DEADLINE;
    let settled = |count: &AtomicUsize| {
        count.load(Ordering::Relaxed) + shared.closed.load(Ordering::Relaxed) >= options.subscribers
    };
    while !settled(&shared.connected) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!(
        "[fanout] {} of {} handshakes done after {:.1} s",
        shared.connected.load(Ordering::Relaxed),
        options.subscribers,
        shared.start.elapsed().as_secs_f64()
    );
    if options.side == Side::Pushpin {
        // One warm-up, after every handshake: a socket that has it is subscribed.
        producer.warm_up().await?;
    }
    let wait_end = Instant::now() + WARM_UP_WAIT;
    while !settled(&shared.ready) && Instant::now() < wait_end {
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
    // Let the warm-up's last deliveries arrive before the first event.
    tokio::time::sleep(Duration::from_millis(300)).await;

    meters.start_cpu();
    let first_event = shared.micros();
    let producing = Instant::now();
    let mut produce = match options.schedule {
        Schedule::Closed => produce_closed(&producer, &shared, options, events).await?,
        Schedule::Open => produce_open(producer, &shared, options, events).await?,
    };
    produce.sort_unstable();
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
    let usage = meters.finish();
    let _ = stop_tx.send(true);
    let mut latencies = Vec::with_capacity(expected as usize);
    let (mut lost, mut closed_missing) = (0u64, 0u64);
    let mut received_per = vec![0u64; requests.len()];
    for (n, task) in tasks.into_iter().enumerate() {
        let ending = task.await.map_err(|e| e.to_string())?;
        received_per[instance_of(n, requests.len())] += ending.latencies.len() as u64;
        let (open, closed) = ending.missing(events as u64);
        (lost, closed_missing) = (lost + open, closed_missing + closed);
        latencies.extend(ending.latencies);
    }
    latencies.sort_unstable();
    let last_frame = shared.last_frame.load(Ordering::Relaxed);
    let delivery_secs = last_frame.saturating_sub(first_event) as f64 / 1e6;
    let first_failure = shared.first_failure.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Ok(Outcome {
        sent: events as u64,
        producing_secs,
        ready,
        received: latencies.len() as u64,
        closed: shared.closed.load(Ordering::Relaxed),
        lost,
        closed_missing,
        unexpected: shared.unexpected.load(Ordering::Relaxed),
        latencies,
        produce,
        frame_bytes: shared.frame_bytes.load(Ordering::Relaxed),
        received_per,
        delivery_secs,
        usage,
        first_failure,
    })
}

fn ms(micros: Option<u32>) -> String {
    micros.map_or("nan".into(), |m| format!("{:.2}", f64::from(m) / 1e3))
}

fn report(options: &Options, o: &Outcome) {
    let schedule = match options.schedule {
        Schedule::Closed => "closed",
        Schedule::Open => "open",
    };
    let (side, producer) = match (options.side, options.source) {
        (Side::Veranda, Source::Edit) => ("veranda", "edit"),
        (Side::Veranda, Source::Direct) => ("veranda", "direct"),
        (Side::Pushpin, _) => ("pushpin", "publish"),
    };
    let measured = !o.usage.is_empty();
    let cpu: Vec<Option<u64>> = o.usage.iter().map(|u| u.cpu_ms).collect();
    let cpu_total = (measured && cpu.iter().all(Option::is_some)).then(|| cpu.iter().flatten().sum::<u64>());
    let (cpu_ms, cpu_us_per_frame) = cpu_total.map_or(("nan".into(), "nan".into()), |cpu| {
        (cpu.to_string(), format!("{:.2}", cpu as f64 * 1e3 / o.received.max(1) as f64))
    });
    let mib = |kib: u64| format!("{:.1}", kib as f64 / 1024.0);
    let idle: Option<u64> = o.usage.iter().map(|u| u.rss_idle_kib).sum();
    let (rss_idle, rss_peak) = match idle.filter(|_| measured) {
        Some(idle) => (mib(idle), mib(o.usage.iter().map(|u| u.rss_peak_kib).sum())),
        None => ("nan".into(), "nan".into()),
    };
    let rate = |received: u64| format!("{:.0}", received as f64 / o.delivery_secs.max(1e-3));
    let instances = format!(
        "instances={} frames_per_sec={} frames_per_sec_per_instance={} received_per_instance={} \
         rss_peak_per_instance_mib={} cpu_ms_per_instance={}",
        o.received_per.len(),
        rate(o.received),
        per_instance(o.received_per.iter().map(|&r| rate(r))),
        per_instance(&o.received_per),
        if measured { per_instance(o.usage.iter().map(|u| mib(u.rss_peak_kib))) } else { "nan".into() },
        if measured {
            per_instance(cpu.iter().map(|c| c.map_or("nan".into(), |c| c.to_string())))
        } else {
            "nan".into()
        },
    );
    println!(
        "RESULT side={side} producer={producer} schedule={schedule} subscribers={} ready={} rate={} seconds={} events={} achieved_rate={:.1} expected={} \
         received={} missing={} lost={} closed={} closed_missing={} unexpected={} p50_ms={} p99_ms={} max_ms={} produce_p50_ms={} \
         produce_p99_ms={} frame_bytes={} rss_idle_mib={rss_idle} rss_peak_mib={rss_peak} cpu_ms={cpu_ms} \
         cpu_us_per_frame={cpu_us_per_frame} {instances}",
        options.subscribers,
        o.ready,
        options.rate,
        options.seconds,
        o.sent,
        o.sent as f64 / o.producing_secs.max(1e-9),
        o.sent * o.ready as u64,
        o.received,
        (o.sent * o.ready as u64).saturating_sub(o.received),
        o.lost,
        o.closed,
        o.closed_missing,
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
mod tests;
