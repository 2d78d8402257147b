//! `open_loop`: a constant-rate (open-loop) HTTP load client for latency targets, as wrk2
//! is: request `i` is due at `start + i / rate` whatever happened to earlier ones, and its
//! latency counts from that due time, so a stalled server is charged for every request it
//! delayed (coordinated omission corrected). As in wrk2 each of the `--connections`
//! keep-alive connections has its own share of the schedule (requests `c`, `c + C`,
//! `c + 2C`, …): a request due while its connection still waits for an answer is sent when
//! the answer comes, and that wait is part of its latency.
//!
//! ```text
//! open_loop --url http://127.0.0.1:PORT/path --rate 6000 [--seconds 10] [--connections 64]
//!     [--method POST] [--header 'Name: value']... [--body TEXT | --body-file FILE] [--drain 15]
//! ```
//!
//! In the body and header values `{n}` is replaced by the request number (unique in the
//! run), `{pool}` by that number modulo 10,000 and `{now_ms}` by the Unix time in ms: the stand-in for the Lua scripts' per-request
//! ids. Prints the achieved rate, non-2xx answers, failed requests and p50 / p99 / p99.9 /
//! max latency, then one machine-readable `RESULT` line. Loopback only; bounded in rate,
//! time and count (see [`veranda_benches::open_loop`]); every request times out after 10 s
//! and the run ends `--drain` seconds (default 15) after its last request was due: requests
//! due and not answered by then are counted as unfinished, and everything answered before
//! is counted, so a run asking far more than the server can answer measures what it did
//! answer (`paced.sh`'s probe of the maximum rate).
//!
//! With `OPEN_LOOP_SLOW=FILE` it also writes every request answered more than 2 ms after its
//! due time to FILE, one `due-ms-into-the-run latency-ms` line each: when the tail happened.
//!
//! The client is one thread (a current-thread runtime, so `taskset -c 1` gives it a core of
//! its own without two threads sharing it) and speaks HTTP/1.1 through hyper's connection
//! API: no pool, no task per request, so it keeps its schedule at rates a pooled client
//! falls behind on.

use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{HeaderName, HeaderValue, HOST};
use hyper::{Method, Request};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use veranda_benches::open_loop::{due, parse, render_body, slow_lines, summary, Options};

/// How long one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The step of tokio's timer.
const TIMER_STEP: Duration = Duration::from_millis(1);

fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis()).unwrap_or(0)
}

/// Where the requests go: the address to connect to, the `Host` header and the path.
struct Target {
    address: String,
    host: HeaderValue,
    path: String,
}

impl Target {
    fn of(url: &str) -> Result<Target, String> {
        let url = reqwest::Url::parse(url).map_err(|e| format!("--url: {e}"))?;
        let host = url.host_str().ok_or("--url has no host")?;
        let port = url.port_or_known_default().ok_or("--url has no port")?;
        let path = match url.query() {
            Some(query) => format!("{}?{query}", url.path()),
            None => url.path().to_string(),
        };
        let host_header = HeaderValue::from_str(&format!("{host}:{port}")).map_err(|e| e.to_string())?;
        Ok(Target { address: format!("{host}:{port}"), host: host_header, path })
    }
}

/// What one connection saw.
#[derive(Default)]
struct Tally {
    /// µs from each answered request's due time to its whole answer.
    latencies: Vec<u64>,
    non2xx: u64,
    failed: u64,
    /// The latest answer.
    last_answer: Option<Instant>,
    /// How far behind its due time a request whose connection was free was sent, at most
    /// (the client's own lag, not a wait for the server).
    send_lag_max: Duration,
    /// Requests answered more than [`SLOW`] after their due time: (request number, µs).
    slow: Vec<(u64, u64)>,
}

/// What `OPEN_LOOP_SLOW=FILE` lists: requests answered later than this after their due time.
const SLOW: Duration = Duration::from_millis(2);

/// One request as the options say, numbered `n`.
fn request(options: &Options, target: &Target, method: &Method, n: u64) -> Result<Request<Full<Bytes>>, String> {
    let now = now_ms();
    let mut builder = Request::builder().method(method.clone()).uri(target.path.as_str()).header(HOST, &target.host);
    for (name, value) in &options.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|e| format!("--header {name}: {e}"))?;
        let value = HeaderValue::from_str(&render_body(value, n, now)).map_err(|e| e.to_string())?;
        builder = builder.header(name, value);
    }
    let body = Full::new(Bytes::from(render_body(&options.body, n, now)));
    builder.body(body).map_err(|e| e.to_string())
}

/// Waits until `due_at`: tokio's timer has millisecond steps and would send a request up to
/// 1 ms late, which the latency from its due time would then count; the last millisecond is
/// spent yielding to the other connections instead (the client has a core of its own).
async fn wait_until(due_at: Instant) {
    if let Some(early) = due_at.checked_sub(TIMER_STEP) {
        tokio::time::sleep_until(early.into()).await;
    }
    while Instant::now() < due_at {
        tokio::task::yield_now().await;
    }
}

/// A new keep-alive connection to `target`.
async fn connect(target: &Target) -> Option<SendRequest<Full<Bytes>>> {
    let stream = TcpStream::connect(&target.address).await.ok()?;
    stream.set_nodelay(true).ok()?;
    let (sender, connection) = http1::handshake(TokioIo::new(stream)).await.ok()?;
    tokio::spawn(connection);
    Some(sender)
}

/// Sends the requests of connection `c` of `connections`, each at its due time, until
/// `deadline`: a request not answered by then (or not yet sent) is left unfinished, and the
/// tally of what was answered is returned, however far behind its schedule the connection is.
async fn connection(
    c: u64,
    connections: u64,
    options: Arc<Options>,
    target: Arc<Target>,
    method: Method,
    start: Instant,
    deadline: Instant,
) -> Tally {
    let mut tally = Tally::default();
    let mut sender = None;
    for n in (c..options.requests()).step_by(connections as usize) {
        let due_at = start + due(n, options.rate);
        let idle = Instant::now() < due_at;
        wait_until(due_at).await;
        if idle {
            // The client's own lag: the connection was free before the request was due.
            tally.send_lag_max = tally.send_lag_max.max(Instant::now().saturating_duration_since(due_at));
        }
        if Instant::now() >= deadline {
            break;
        }
        if sender.is_none() {
            sender = connect(&target).await;
        }
        let (Some(open), Ok(req)) = (sender.as_mut(), request(&options, &target, &method, n)) else {
            tally.failed += 1;
            continue;
        };
        let timeout = REQUEST_TIMEOUT.min(deadline.saturating_duration_since(Instant::now()));
        let answer = tokio::time::timeout(timeout, async {
            open.ready().await.ok()?;
            let res = open.send_request(req).await.ok()?;
            let ok = res.status().is_success();
            // Read the whole answer before the request counts as done.
            res.into_body().collect().await.ok()?;
            Some(ok)
        })
        .await;
        match answer {
            Ok(Some(ok)) => {
                let at = Instant::now();
                let late = at.saturating_duration_since(due_at);
                tally.latencies.push(late.as_micros() as u64);
                if late > SLOW {
                    tally.slow.push((n, late.as_micros() as u64));
                }
                tally.non2xx += u64::from(!ok);
                tally.last_answer = Some(at);
            }
            // Still waiting when the run ends: unfinished, not failed.
            Err(_) if Instant::now() >= deadline => break,
            _ => {
                // The connection is in an unknown state: the next request opens a new one.
                tally.failed += 1;
                sender = None;
            }
        }
    }
    tally
}

/// What a run saw, in all.
#[derive(Debug)]
struct Outcome {
    /// Requests the schedule held.
    scheduled: u64,
    /// µs from each answered request's due time to its whole answer, sorted.
    latencies: Vec<u64>,
    non2xx: u64,
    failed: u64,
    /// Answers a second, from the start to the last answer.
    achieved: f64,
    send_lag_max: Duration,
}

impl Outcome {
    /// Requests neither answered nor failed when the run ended.
    fn unfinished(&self) -> u64 {
        self.scheduled - self.latencies.len() as u64 - self.failed
    }
}

async fn run(options: Options) -> Result<Outcome, String> {
    let method = Method::from_bytes(options.method.as_bytes()).map_err(|e| e.to_string())?;
    let target = Arc::new(Target::of(&options.url)?);
    // Every header and the body must make a request before the clock starts.
    request(&options, &target, &method, 0)?;
    let options = Arc::new(options);
    let total = options.requests();
    let start = Instant::now() + Duration::from_millis(20);
    let connections = options.connections as u64;
    let last_due = start + due(total.saturating_sub(1), options.rate);
    let deadline = last_due + Duration::from_secs(options.drain);
    let mut tasks = tokio::task::JoinSet::new();
    for c in 0..connections.min(total) {
        tasks.spawn(connection(c, connections, options.clone(), target.clone(), method.clone(), start, deadline));
    }
    // Each connection returns by the deadline; the margin is for a connect that hangs.
    let mut all = Tally::default();
    while let Ok(Some(done)) =
        tokio::time::timeout_at((deadline + Duration::from_secs(1)).into(), tasks.join_next()).await
    {
        let Ok(tally) = done else { continue };
        all.latencies.extend(tally.latencies);
        all.non2xx += tally.non2xx;
        all.failed += tally.failed;
        all.last_answer = all.last_answer.max(tally.last_answer);
        all.send_lag_max = all.send_lag_max.max(tally.send_lag_max);
        all.slow.extend(tally.slow);
    }
    tasks.abort_all();
    let Tally { mut latencies, non2xx, failed, last_answer, send_lag_max, slow } = all;
    if let Some(path) = std::env::var("OPEN_LOOP_SLOW").ok().filter(|path| !path.is_empty()) {
        std::fs::write(&path, slow_lines(&slow, options.rate)).map_err(|e| format!("OPEN_LOOP_SLOW={path}: {e}"))?;
    }
    latencies.sort_unstable();
    let elapsed = last_answer.unwrap_or(start).saturating_duration_since(start).as_secs_f64().max(1e-9);
    let achieved = latencies.len() as f64 / elapsed;
    Ok(Outcome { scheduled: total, latencies, non2xx, failed, achieved, send_lag_max })
}

/// Prints what `options` ran into: two lines for people, then the `RESULT` line.
fn print(options: &Options, outcome: &Outcome) {
    let Outcome { scheduled, latencies, non2xx, failed, achieved, send_lag_max } = outcome;
    let unfinished = outcome.unfinished();
    let [p50, p99, p999, max] = summary(latencies).unwrap_or([0; 4]);
    let ms = |micros: u64| micros as f64 / 1e3;
    let lag_ms = send_lag_max.as_secs_f64() * 1e3;
    println!(
        "{} {}: {} req/s asked, {achieved:.0} answered/s; {} answered, {non2xx} non-2xx, {failed} failed, {unfinished} unfinished",
        options.method,
        options.url,
        options.rate,
        latencies.len()
    );
    println!(
        "latency from the due time: p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms (sends lagged at most {lag_ms:.2} ms)",
        ms(p50),
        ms(p99),
        ms(p999),
        ms(max),
    );
    println!(
        "RESULT rate={} seconds={} scheduled={scheduled} answered={} achieved_rate={achieved:.1} non2xx={non2xx} failed={failed} \
         unfinished={unfinished} p50_ms={:.3} p99_ms={:.3} p999_ms={:.3} max_ms={:.3} send_lag_max_ms={lag_ms:.3}",
        options.rate,
        options.seconds,
        latencies.len(),
        ms(p50),
        ms(p99),
        ms(p999),
        ms(max),
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("open_loop: {e}");
            eprintln!(
                "usage: open_loop --url http://127.0.0.1:PORT/path --rate N [--seconds 10] [--connections 64] \
                 [--method GET] [--header 'Name: value']... [--body TEXT | --body-file FILE] [--drain 15]"
            );
            return std::process::ExitCode::from(2);
        }
    };
    match run(options.clone()).await {
        Ok(outcome) => {
            print(&options, &outcome);
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("open_loop: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// A loopback server that answers every request with a 204 after `delay`, one request
    /// at a time per connection; returns its port.
    async fn server(delay: Duration) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
        let port = listener.local_addr().expect("bound").port();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 4096];
                    loop {
                        while let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            buf.drain(..end + 4);
                            tokio::time::sleep(delay).await;
                            let answer = b"HTTP/1.1 204 No Content\r\n\r\n";
                            if stream.write_all(answer).await.is_err() {
                                return;
                            }
                        }
                        match stream.read(&mut chunk).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => buf.extend_from_slice(&chunk[..n]),
                        }
                    }
                });
            }
        });
        port
    }

    fn options(port: u16, rate: u64, connections: u64) -> Options {
        let args: Vec<String> = [
            "--url",
            &format!("http://127.0.0.1:{port}/"),
            "--rate",
            &rate.to_string(),
            "--seconds",
            "1",
            "--connections",
            &connections.to_string(),
            "--drain",
            "1",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        parse(&args).expect("valid options")
    }

    #[tokio::test]
    async fn a_server_that_keeps_up_has_every_request_answered() {
        let port = server(Duration::ZERO).await;
        let outcome = run(options(port, 200, 8)).await.expect("a run");
        assert_eq!((outcome.scheduled, outcome.latencies.len(), outcome.failed), (200, 200, 0));
        assert_eq!((outcome.non2xx, outcome.unfinished()), (0, 0));
    }

    #[tokio::test]
    async fn asked_far_more_than_it_answers_the_run_ends_at_its_drain_and_counts_what_was_answered() {
        // Four connections, each answered after 20 ms: at most 200 answers a second, against
        // 2,000 asked for one second, then a one-second drain.
        let port = server(Duration::from_millis(20)).await;
        let began = Instant::now();
        let outcome = run(options(port, 2_000, 4)).await.expect("a run");
        let took = began.elapsed();
        let answered = outcome.latencies.len() as u64;
        assert!(took < Duration::from_secs(4), "ends at its drain, not after every request: {took:?}");
        assert!(answered >= 100, "the answers before the end are counted: {answered}");
        assert!(answered <= 2 * 200 + 8, "no more than the server answered in two seconds: {answered}");
        assert_eq!(outcome.failed, 0, "a request cut off by the end is unfinished, not failed");
        assert_eq!(answered + outcome.unfinished(), 2_000);
        assert!(outcome.achieved > 50.0 && outcome.achieved < 250.0, "answers a second: {}", outcome.achieved);
    }
}
