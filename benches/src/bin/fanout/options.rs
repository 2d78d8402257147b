//! The command line of a run: which server, what produces the events, and the bounds
//! every option is checked against.

use veranda_benches::live::{self, DEFAULT_BLOCK};

use super::{MAX_INSTANCES, MAX_PAYLOAD, MAX_RATE, MAX_SECONDS, MAX_SUBSCRIBERS};

/// Which server delivers the events.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Side {
    /// `veranda serve`'s edits stream.
    Veranda,
    /// Pushpin, websocket-over-HTTP to a GRIP origin (`grip_origin`).
    Pushpin,
}

/// What makes Veranda's events.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Source {
    /// Content edits through the API (durable before their event is published).
    Edit,
    /// Events published straight on the stream's shared Redis log.
    Direct,
}

/// How events are produced.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Schedule {
    /// Each event after the previous one's answer: a slow producer lowers the achieved rate.
    Closed,
    /// Each event at its due time whatever happened to the previous ones (open loop, at most
    /// `MAX_IN_FLIGHT` at once); latency counts from the due time.
    Open,
}

/// The options of a run.
#[derive(Debug)]
pub(crate) struct Options {
    /// Which server.
    pub(crate) side: Side,
    /// Veranda: what makes the events.
    pub(crate) source: Source,
    /// Veranda with `--producer direct`: `redis://127.0.0.1:PORT/`, the server's `--redis-url`.
    pub(crate) redis_url: String,
    /// `http://127.0.0.1:PORT` of the server the subscribers connect to (the first of
    /// `addresses`; the edit producer's).
    pub(crate) address: String,
    /// Every instance the subscribers are split over, evenly (`--address A,B`: instances
    /// of one site sharing one Redis).
    pub(crate) addresses: Vec<String>,
    /// Veranda: the owner session id.
    pub(crate) session: String,
    /// Veranda: the text block edited.
    pub(crate) block: String,
    /// Pushpin: `http://127.0.0.1:PORT` of its publish endpoint.
    pub(crate) publish: String,
    /// Pushpin: the channel the origin subscribes sockets to.
    pub(crate) channel: String,
    /// Pushpin: the size of each message, in bytes.
    pub(crate) payload_bytes: usize,
    /// Websocket subscribers.
    pub(crate) subscribers: usize,
    /// Events per second.
    pub(crate) rate: u32,
    /// Seconds of events.
    pub(crate) seconds: u32,
    /// Closed or open loop.
    pub(crate) schedule: Schedule,
    /// The server processes whose memory and CPU time (with their descendants') are
    /// sampled, one per address (`--rss-pid P1,P2`); none: not measured.
    pub(crate) rss_pids: Vec<u32>,
}

pub(crate) fn usage() -> ! {
    eprintln!(
        "usage:\n  fanout seed-session DATA_DIR|REDIS_URL SESSION_ID\n  fanout veranda --address http://127.0.0.1:PORT[,http://127.0.0.1:PORT2…] --session ID [--block ID] \
         [--producer edit|direct] [--redis-url redis://127.0.0.1:PORT/] [common]\n  \
         fanout pushpin --address http://127.0.0.1:PORT --publish http://127.0.0.1:PORT [--channel NAME] \
         [--payload-bytes N] [common]\n  common: [--subscribers N] [--rate PER_SECOND] [--seconds N] [--schedule closed|open] [--rss-pid PID[,PID2…]]"
    );
    std::process::exit(2)
}

/// A whole number within `range`, or why not.
pub(crate) fn bounded<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
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

pub(crate) fn parse(args: &[String]) -> Result<Options, String> {
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
        addresses: Vec::new(),
        session: String::new(),
        block: DEFAULT_BLOCK.to_string(),
        publish: String::new(),
        channel: "bench".to_string(),
        payload_bytes: 300,
        subscribers: 1_000,
        rate: 100,
        seconds: 10,
        rss_pids: Vec::new(),
        schedule: Schedule::Closed,
    };
    let mut it = args[1..].iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--address" => {
                options.addresses = value
                    .split(',')
                    .map(|a| live::loopback_address(a).map_err(|e| format!("--address: {e}")))
                    .collect::<Result<_, _>>()?;
                options.address = options.addresses[0].clone();
            }
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
            "--schedule" => {
                options.schedule = match value.as_str() {
                    "closed" => Schedule::Closed,
                    "open" => Schedule::Open,
                    _ => return Err("--schedule is closed or open".into()),
                }
            }
            "--rss-pid" => {
                options.rss_pids = value.split(',').map(|p| bounded(flag, p, 1..=u32::MAX)).collect::<Result<_, _>>()?
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.address.is_empty() {
        return Err("--address is required".into());
    }
    if options.addresses.len() > MAX_INSTANCES {
        return Err(format!("--address takes at most {MAX_INSTANCES} instances"));
    }
    if !options.rss_pids.is_empty() && options.rss_pids.len() != options.addresses.len() {
        return Err("--rss-pid takes one process per --address".into());
    }
    if side == Side::Pushpin && options.addresses.len() > 1 {
        return Err("pushpin takes one --address".into());
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
pub(crate) fn loopback_redis(url: &str) -> Result<String, String> {
    let rest = url.strip_prefix("redis://127.0.0.1:").ok_or("--redis-url must be redis://127.0.0.1:PORT/")?;
    let port = rest.split('/').next().unwrap_or_default();
    port.parse::<u16>().map_err(|_| format!("--redis-url {url}: the port is not a number"))?;
    Ok(url.to_string())
}
