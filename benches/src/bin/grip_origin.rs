//! `grip_origin PORT [CHANNEL]`: the origin behind Pushpin in the fan-out benchmark
//! (`benches/load/fanout.sh`). Pushpin routes websockets to it as websocket-over-HTTP
//! (`over_http` in its routes file): each socket event arrives as a `POST` whose body is
//! `application/websocket-events`. The origin accepts every `OPEN` and, in the same answer,
//! subscribes the socket to CHANNEL (default `bench`) with a GRIP control message (enabled by
//! `Sec-WebSocket-Extensions: grip`); it acknowledges a `CLOSE` and ignores everything else.
//! Messages then reach the sockets through Pushpin's publish endpoint, never through here.
//! Binds 127.0.0.1 only.

use actix_web::{web, App, HttpResponse, HttpServer};

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
    let mut args = std::env::args().skip(1);
    let Some(port) = args.next().and_then(|arg| arg.parse::<u16>().ok()) else {
        eprintln!("usage: grip_origin PORT [CHANNEL]");
        return std::process::ExitCode::from(2);
    };
    let channel = web::Data::new(args.next().unwrap_or_else(|| "bench".to_string()));
    let server = HttpServer::new(move || App::new().app_data(channel.clone()).default_service(web::post().to(events)))
        .workers(1)
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
    fn a_close_is_acknowledged_and_other_events_get_nothing() {
        assert_eq!(answer(b"CLOSE\r\n", "bench"), "CLOSE\r\n");
        assert_eq!(answer(b"CLOSE 2\r\n\x03\xe8\r\n", "bench"), "CLOSE\r\n");
        assert_eq!(answer(b"TEXT 2\r\nhi\r\n", "bench"), "");
        assert_eq!(answer(b"PING\r\n", "bench"), "");
    }
}
