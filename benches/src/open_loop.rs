//! The arithmetic of the open-loop load client (`src/bin/open_loop.rs`): its options and
//! their bounds, the constant-rate schedule, the request body template and the latency
//! summary.
//!
//! The client works as wrk2 does: request `i` is due at `start + i / rate`, whether or not
//! earlier answers have come back, and its latency is counted from that due time, not from
//! the moment a connection was free to send it. A server that stalls therefore shows its
//! stall in every request that should have been sent meanwhile (coordinated omission is
//! corrected), which a closed-loop client such as wrk hides.

use std::time::Duration;

/// The highest rate accepted, requests per second.
pub const MAX_RATE: u64 = 200_000;
/// The longest run accepted, seconds.
pub const MAX_SECONDS: u64 = 300;
/// The most connections accepted.
pub const MAX_CONNECTIONS: usize = 4_096;
/// The most requests one run may schedule (rate × duration).
pub const MAX_REQUESTS: u64 = 20_000_000;
/// The largest request body accepted, bytes.
pub const MAX_BODY: usize = 1 << 20;
/// The longest drain accepted, seconds.
pub const MAX_DRAIN_SECONDS: u64 = 60;
/// How long a run goes on after its last request was due, unless `--drain` says.
pub const DEFAULT_DRAIN_SECONDS: u64 = 15;

/// What one run sends, how fast and for how long.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// `http://127.0.0.1:PORT/path` (loopback only).
    pub url: String,
    /// The HTTP method.
    pub method: String,
    /// `Name: value` headers sent with every request.
    pub headers: Vec<(String, String)>,
    /// The body template (see [`render_body`]); empty for none.
    pub body: String,
    /// Requests per second.
    pub rate: u64,
    /// Seconds of sending.
    pub seconds: u64,
    /// Connections (at most this many requests in flight).
    pub connections: usize,
    /// Seconds the run goes on after its last request was due: requests due and not yet
    /// sent are still sent, and answers awaited, until then; what is unanswered at that
    /// point is counted as unfinished.
    pub drain: u64,
}

impl Options {
    /// The number of requests the run schedules.
    pub fn requests(&self) -> u64 {
        self.rate * self.seconds
    }
}

/// When request `i` is due, after the start, at `rate` requests per second.
pub fn due(i: u64, rate: u64) -> Duration {
    let rate = rate.max(1);
    let nanos = u128::from(i) * 1_000_000_000 / u128::from(rate);
    Duration::from_nanos(nanos.min(u128::from(u64::MAX)) as u64)
}

/// How many ids `{pool}` cycles through.
pub const POOL: u64 = 10_000;

/// The body of request `n`: the template with `{n}` replaced by the request number (unique
/// within the run, so an id built from it names a fresh page load or visitor), `{pool}` by
/// the number modulo [`POOL`] (ids of a pool of returning visitors) and `{now_ms}` by the
/// Unix time in milliseconds.
pub fn render_body(template: &str, n: u64, now_ms: u128) -> String {
    template
        .replace("{n}", &n.to_string())
        .replace("{pool}", &(n % POOL).to_string())
        .replace("{now_ms}", &now_ms.to_string())
}

/// The p50, p99, p99.9 and maximum of sorted latencies (nearest rank).
pub fn summary(sorted: &[u64]) -> Option<[u64; 4]> {
    let max = *sorted.last()?;
    let at = |p: f64| crate::live::percentile(sorted, p).unwrap_or(max);
    Some([at(0.5), at(0.99), at(0.999), max])
}

/// The lines `OPEN_LOOP_SLOW` writes for the slow requests, `(request number, µs late)`:
/// one `due-ms-into-the-run latency-ms` line each, in the order they were due.
pub fn slow_lines(slow: &[(u64, u64)], rate: u64) -> String {
    let mut slow = slow.to_vec();
    slow.sort_unstable();
    slow.iter()
        .map(|(n, micros)| format!("{:.3} {:.3}\n", due(*n, rate).as_secs_f64() * 1e3, *micros as f64 / 1e3))
        .collect()
}

/// Checks that `url` is plain HTTP to a loopback address with a port.
pub fn loopback_url(url: &str) -> Result<String, String> {
    let parsed = reqwest::Url::parse(url).map_err(|e| format!("{url}: {e}"))?;
    if parsed.scheme() != "http" {
        return Err(format!("{url}: only http:// is supported"));
    }
    let host = parsed.host_str().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
    let loopback = host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if !loopback || parsed.port().is_none() {
        return Err(format!("{url}: the address must be loopback with a port (http://127.0.0.1:PORT/...)"));
    }
    Ok(parsed.to_string())
}

fn bounded<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    flag: &str,
    value: &str,
    low: T,
    high: T,
) -> Result<T, String> {
    match value.parse::<T>() {
        Ok(v) if v >= low && v <= high => Ok(v),
        _ => Err(format!("{flag} takes a number from {low} to {high}")),
    }
}

/// Reads the command line (without the program name); `--body-file` is read here.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        url: String::new(),
        method: "GET".into(),
        headers: Vec::new(),
        body: String::new(),
        rate: 0,
        seconds: 10,
        connections: 64,
        drain: DEFAULT_DRAIN_SECONDS,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--url" => options.url = loopback_url(value)?,
            "--method" => {
                if !["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH"].contains(&value.as_str()) {
                    return Err(format!("--method {value}: not an HTTP method this client sends"));
                }
                options.method = value.clone();
            }
            "--header" => {
                let (name, v) = value.split_once(':').ok_or("--header takes 'Name: value'")?;
                options.headers.push((name.trim().to_string(), v.trim().to_string()));
            }
            "--body" => options.body = value.clone(),
            "--body-file" => {
                let text = std::fs::read_to_string(value).map_err(|e| format!("--body-file {value}: {e}"))?;
                options.body = text.trim_end_matches('\n').to_string();
            }
            "--rate" => options.rate = bounded(flag, value, 1, MAX_RATE)?,
            "--seconds" => options.seconds = bounded(flag, value, 1, MAX_SECONDS)?,
            "--connections" => options.connections = bounded(flag, value, 1, MAX_CONNECTIONS)?,
            "--drain" => options.drain = bounded(flag, value, 0, MAX_DRAIN_SECONDS)?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.url.is_empty() {
        return Err("--url is required".into());
    }
    if options.rate == 0 {
        return Err("--rate is required".into());
    }
    if options.body.len() > MAX_BODY {
        return Err(format!("the body is over {MAX_BODY} bytes"));
    }
    if options.requests() > MAX_REQUESTS {
        return Err(format!("rate × seconds is over {MAX_REQUESTS} requests"));
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn requests_are_due_at_even_intervals_from_the_start() {
        assert_eq!(due(0, 1_000), Duration::ZERO);
        assert_eq!(due(1, 1_000), Duration::from_millis(1));
        assert_eq!(due(3, 3), Duration::from_secs(1));
        assert_eq!(due(1, 3), Duration::from_nanos(333_333_333));
        assert_eq!(due(60_000 * 300, 60_000), Duration::from_secs(300));
    }

    #[test]
    fn latency_percentiles_are_nearest_rank_up_to_p99_9() {
        let values: Vec<u64> = (1..=1_000).collect();
        assert_eq!(summary(&values), Some([500, 990, 999, 1_000]));
        let values: Vec<u64> = (1..=100).collect();
        assert_eq!(summary(&values), Some([50, 99, 100, 100]));
        assert_eq!(summary(&[42]), Some([42, 42, 42, 42]));
        assert_eq!(summary(&[]), None);
    }

    #[test]
    fn slow_requests_are_listed_by_when_they_were_due() {
        assert_eq!(slow_lines(&[(2_000, 3_500), (10, 2_001)], 1_000), "10.000 2.001\n2000.000 3.500\n");
        assert_eq!(slow_lines(&[], 1_000), "");
    }

    #[test]
    fn the_body_names_each_request() {
        let template = r#"[{"pageLoadId":"bench-{n}","timestamp":{now_ms}}]"#;
        assert_eq!(
            render_body(template, 17, 1_700_000_000_000),
            r#"[{"pageLoadId":"bench-17","timestamp":1700000000000}]"#
        );
        assert_eq!(render_body("plain", 3, 0), "plain");
        assert_eq!(render_body("v-{pool}", 10_017, 0), "v-17", "a pool of 10,000 ids");
    }

    #[test]
    fn only_loopback_urls_and_bounded_runs_are_accepted() {
        let ok = parse(&args(&["--url", "http://127.0.0.1:8080/api/x", "--rate", "1000", "--seconds", "5"])).unwrap();
        assert_eq!(
            (ok.url.as_str(), ok.rate, ok.seconds, ok.connections, ok.drain),
            ("http://127.0.0.1:8080/api/x", 1000, 5, 64, 15)
        );
        let drained = parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "1", "--drain", "0"])).unwrap();
        assert_eq!(drained.drain, 0);
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "1", "--drain", "61"])).is_err());
        assert_eq!(ok.requests(), 5_000);
        assert!(parse(&args(&["--url", "http://[::1]:8080/", "--rate", "1"])).is_ok());
        assert!(parse(&args(&["--url", "http://10.0.0.1:8080/", "--rate", "1"])).is_err());
        assert!(parse(&args(&["--url", "http://example.com:80/", "--rate", "1"])).is_err());
        assert!(parse(&args(&["--url", "https://127.0.0.1:8443/", "--rate", "1"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1/", "--rate", "1"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "0"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "200001"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "1", "--seconds", "301"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "100000", "--seconds", "300"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "1", "--connections", "0"])).is_err());
        assert!(parse(&args(&["--url", "http://127.0.0.1:1/", "--rate", "1", "--method", "BREW"])).is_err());
        assert!(parse(&args(&["--rate", "1"])).is_err());
        let with_header = parse(&args(&[
            "--url",
            "http://127.0.0.1:1/",
            "--rate",
            "1",
            "--header",
            "Content-Type: application/json",
        ]))
        .unwrap();
        assert_eq!(with_header.headers, vec![("Content-Type".to_string(), "application/json".to_string())]);
    }
}
