//! `grip_origin PORT [CHANNEL] [WORKERS]`: the origin behind Pushpin in the fan-out benchmark
//! (`benches/load/fanout.sh`). Pushpin routes websockets to it as websocket-over-HTTP
//! (`over_http` in its routes file): each socket event arrives as a `POST` whose body is
//! `application/websocket-events`. The origin accepts every `OPEN` and, in the same answer,
//! subscribes the socket to CHANNEL (default `bench`) with a GRIP control message (enabled by
//! `Sec-WebSocket-Extensions: grip`); it acknowledges a `CLOSE` and ignores everything else.
//! Messages then reach the sockets through Pushpin's publish endpoint, never through here.
//! It runs WORKERS actix workers (default [`DEFAULT_WORKERS`], at most [`MAX_WORKERS`]), so
//! that a burst of handshakes is not queued behind one thread. Binds 127.0.0.1 only.

use actix_web::{web, App, HttpResponse, HttpServer};

/// Workers when none are named.
const DEFAULT_WORKERS: usize = 2;
/// The most workers accepted.
const MAX_WORKERS: usize = 64;

/// The port, channel and worker count of the command line, or why not.
fn parse(args: &[String]) -> Result<(u16, String, usize), String> {
    let port = args.first().and_then(|arg| arg.parse::<u16>().ok()).ok_or("PORT is a port number")?;
    let channel = args.get(1).cloned().unwrap_or_else(|| "bench".to_string());
    let workers = match args.get(2) {
        None => DEFAULT_WORKERS,
        Some(arg) => arg.parse::<usize>().ok().filter(|n| (1..=MAX_WORKERS).contains(n)).ok_or("WORKERS is 1 to 64")?,
    };
    Ok((port, channel, workers))
}

/// The answer to one batch of websocket events.
fn answer(events: &[u8], channel: &str) -> String {
    let mut body = String::new();
    if events.starts_with(b"OPEN\r\n") {
        let control = format!(r#"c:{{"type":"subscribe","channel":"{channel}"}}"#);
        body.push_str(&format!("OPEN\r\nTEXT {:x}\r\n{control}\r\n", control.len()));
    }
    if events.windows(7).any(|w| w == b"CLOSE\r\n" || w.starts_with(b"CLOSE ")) {
        body.push_str("CLOSE\r\n");
    }
    body
}

async fn events(body: web::Bytes, channel: web::Data<String>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/websocket-events")
        .insert_header(("Sec-WebSocket-Extensions", "grip"))
        .body(answer(&body, &channel))
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (port, channel, workers) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(why) => {
            eprintln!("grip_origin: {why}\nusage: grip_origin PORT [CHANNEL] [WORKERS]");
            return std::process::ExitCode::from(2);
        }
    };
    let channel = web::Data::new(channel);
    let server = HttpServer::new(move || App::new().app_data(channel.clone()).default_service(web::post().to(events)))
        .workers(workers)
        .bind(("127.0.0.1", port));
    match server {
        Ok(server) => match server.run().await {
            Ok(()) => std::process::ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("grip_origin: {error}");
                std::process::ExitCode::FAILURE
            }
        },
        Err(error) => {
            eprintln!("grip_origin: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_is_accepted_and_subscribed() {
        let body = answer(b"OPEN\r\n", "bench");
        let control = r#"c:{"type":"subscribe","channel":"bench"}"#;
        assert_eq!(body, format!("OPEN\r\nTEXT {:x}\r\n{control}\r\n", control.len()));
    }

    #[test]
    fn two_workers_unless_told_otherwise() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse(&args(&["9000"])), Ok((9000, "bench".to_string(), 2)));
        assert_eq!(parse(&args(&["9000", "news", "4"])), Ok((9000, "news".to_string(), 4)));
        assert!(parse(&args(&["9000", "news", "0"])).is_err());
        assert!(parse(&args(&["9000", "news", "65"])).is_err());
        assert!(parse(&args(&["port"])).is_err());
        assert!(parse(&[]).is_err());
    }

    #[test]
    fn a_close_is_acknowledged_and_other_events_get_nothing() {
        assert_eq!(answer(b"CLOSE\r\n", "bench"), "CLOSE\r\n");
        assert_eq!(answer(b"CLOSE 2\r\n\x03\xe8\r\n", "bench"), "CLOSE\r\n");
        assert_eq!(answer(b"TEXT 2\r\nhi\r\n", "bench"), "");
        assert_eq!(answer(b"PING\r\n", "bench"), "");
    }
}
