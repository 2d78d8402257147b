//! `bare_204 PORT`: the ceiling of the load benchmark (`benches/load/ingest.sh`). A bare
//! actix-web 4 server on `127.0.0.1:PORT` that reads each POST body and answers 204, with
//! the same default worker count as `veranda serve`, so the difference between the two
//! is the cost of the ingest itself.

use actix_web::{web, App, HttpResponse, HttpServer};

/// Reads the body (as the ingest does) and answers 204.
async fn no_content(_body: web::Bytes) -> HttpResponse {
    HttpResponse::NoContent().finish()
}

#[actix_web::main]
async fn main() -> std::process::ExitCode {
    let Some(port) = std::env::args().nth(1).and_then(|arg| arg.parse::<u16>().ok()) else {
        eprintln!("usage: bare_204 PORT");
        return std::process::ExitCode::from(2);
    };
    let server = HttpServer::new(|| App::new().default_service(web::post().to(no_content))).bind(("127.0.0.1", port));
    let result = match server {
        Ok(server) => server.run().await,
        Err(error) => Err(error),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bare_204: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}
