//! `open_loop`: a constant-rate (open-loop) HTTP load client for latency targets, as wrk2
//! is: request `i` is due at `start + i / rate` whatever happened to earlier ones, and its
//! latency counts from that due time, so a stalled server is charged for every request it
//! delayed (coordinated omission corrected). At most `--connections` requests are in flight;
//! a request due while all are busy waits for one, and that wait is part of its latency.
//!
//! ```text
//! open_loop --url http://127.0.0.1:PORT/path --rate 6000 [--seconds 10] [--connections 64]
//!     [--method POST] [--header 'Name: value']... [--body TEXT | --body-file FILE]
//! ```
//!
//! In the body and header values `{n}` is replaced by the request number (unique in the
//! run) and `{now_ms}` by the Unix time in ms: the stand-in for the Lua scripts' per-request
//! ids. Prints the achieved rate, non-2xx answers, failed requests and p50 / p99 / p99.9 /
//! max latency, then one machine-readable `RESULT` line. Loopback only; bounded in rate,
//! time and count (see [`veranda_benches::open_loop`]); every request times out after 10 s
//! and the run ends at most 15 s after its last request was due.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::{mpsc, Semaphore};
use veranda_benches::open_loop::{due, parse, render_body, summary, Options};

/// How long one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the run waits for answers after the last request was due.
const DRAIN: Duration = Duration::from_secs(15);

/// How one request ended.
enum Outcome {
    /// Answered: the status was 2xx or not, after this many µs from its due time.
    Answered { ok: bool, micros: u64, at: Instant },
    /// No answer (connection error or timeout).
    Failed,
}

fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0)
}

fn request(http: &reqwest::Client, options: &Options, method: &reqwest::Method, n: u64) -> reqwest::RequestBuilder {
    let now = now_ms();
    let mut builder = http.request(method.clone(), &options.url);
    for (name, value) in &options.headers {
        builder = builder.header(name, render_body(value, n, now));
    }
    if !options.body.is_empty() {
        builder = builder.body(render_body(&options.body, n, now));
    }
    builder
}

async fn run(options: Options) -> Result<(), String> {
    let method = reqwest::Method::from_bytes(options.method.as_bytes()).map_err(|e| e.to_string())?;
    let http = reqwest::Client::builder()
        .no_proxy()
        .pool_max_idle_per_host(options.connections)
        .timeout(REQUEST_TIMEOUT)
        .build()
        .map_err(|e| e.to_string())?;
    let options = Arc::new(options);
    let total = options.requests();
    let slots = Arc::new(Semaphore::new(options.connections));
    let (tx, mut rx) = mpsc::unbounded_channel::<Outcome>();
    let start = Instant::now() + Duration::from_millis(20);
    let mut send_lag_max = Duration::ZERO;
    for n in 0..total {
        let due_at = start + due(n, options.rate);
        tokio::time::sleep_until(due_at.into()).await;
        let Ok(slot) = slots.clone().acquire_owned().await else { break };
        send_lag_max = send_lag_max.max(Instant::now().saturating_duration_since(due_at));
        let builder = request(&http, &options, &method, n);
        let tx = tx.clone();
        tokio::spawn(async move {
            let outcome = match builder.send().await {
                Ok(res) => {
                    let ok = res.status().is_success();
                    // Read the whole answer before the request counts as done.
                    let read = res.bytes().await.is_ok();
                    let at = Instant::now();
                    let micros = at.saturating_duration_since(due_at).as_micros() as u64;
                    if read {
                        Outcome::Answered { ok, micros, at }
                    } else {
                        Outcome::Failed
                    }
                }
                Err(_) => Outcome::Failed,
            };
            drop(slot);
            let _ = tx.send(outcome);
        });
    }
    drop(tx);
    let last_due = start + due(total.saturating_sub(1), options.rate);
    let deadline = last_due + DRAIN;
    let (mut latencies, mut non2xx, mut failed, mut last_answer) =
        (Vec::with_capacity(total as usize), 0u64, 0u64, start);
    loop {
        match tokio::time::timeout_at(deadline.into(), rx.recv()).await {
            Ok(Some(Outcome::Answered { ok, micros, at })) => {
                latencies.push(micros);
                non2xx += u64::from(!ok);
                last_answer = last_answer.max(at);
            }
            Ok(Some(Outcome::Failed)) => failed += 1,
            Ok(None) | Err(_) => break,
        }
    }
    let unfinished = total - latencies.len() as u64 - failed;
    latencies.sort_unstable();
    let elapsed = last_answer.saturating_duration_since(start).as_secs_f64().max(1e-9);
    let achieved = latencies.len() as f64 / elapsed;
    let [p50, p99, p999, max] = summary(&latencies).unwrap_or([0; 4]);
    let ms = |micros: u64| micros as f64 / 1e3;
    println!(
        "{} {}: {} req/s asked, {achieved:.0} answered/s; {} answered, {non2xx} non-2xx, {failed} failed, {unfinished} unfinished",
        options.method,
        options.url,
        options.rate,
        latencies.len()
    );
    println!(
        "latency from the due time: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms (sends lagged at most {:.2} ms)",
        ms(p50),
        ms(p99),
        ms(p999),
        ms(max),
        send_lag_max.as_secs_f64() * 1e3
    );
    println!(
        "RESULT rate={} seconds={} scheduled={total} answered={} achieved_rate={achieved:.1} non2xx={non2xx} failed={failed} \
         unfinished={unfinished} p50_ms={:.3} p99_ms={:.3} p999_ms={:.3} max_ms={:.3} send_lag_max_ms={:.3}",
        options.rate,
        options.seconds,
        latencies.len(),
        ms(p50),
        ms(p99),
        ms(p999),
        ms(max),
        send_lag_max.as_secs_f64() * 1e3
    );
    Ok(())
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("open_loop: {e}");
            eprintln!(
                "usage: open_loop --url http://127.0.0.1:PORT/path --rate N [--seconds 10] [--connections 64] \
                 [--method GET] [--header 'Name: value']... [--body TEXT | --body-file FILE]"
            );
            return std::process::ExitCode::from(2);
        }
    };
    match run(options).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("open_loop: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
