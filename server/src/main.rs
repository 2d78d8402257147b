//! `veranda`: wires telemetry, settings and start-up; everything else is in the library.

use std::process::ExitCode;

use clap::Parser;
use veranda_server::cli::{Cli, Command, UserCommand};
use veranda_server::settings::Settings;
use veranda_server::startup::Application;
use veranda_server::telemetry;

/// mimalloc: the request paths allocate many small, short-lived buffers (bodies, parsed
/// JSON, records), the pattern it is built for. glibc's malloc costs the ingest paths 14–29 %
/// more server CPU a request, and RecordHit half as much memory again; mimalloc 2 is level
/// with it on error reports and behind on RecordHit (`benches/reports/build.md`, "The
/// allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::CheckSite { dir } => veranda_server::check_site::run(&dir),
        Command::Init { dir } => veranda_server::init::run(&dir),
        Command::User { command: UserCommand::Add(args) } => veranda_server::user_add::run(&args),
        Command::Serve(args) => {
            let settings = match Settings::load(args.config.as_deref(), std::env::vars(), &args.overrides()) {
                Ok(settings) => settings,
                Err(e) => {
                    eprintln!("veranda: bad configuration:\n{e}");
                    return ExitCode::from(2);
                }
            };
            telemetry::init(&settings.log);
            without_transparent_huge_pages();
            let runtime = actix_rt::System::new();
            runtime.block_on(async move {
                let app = match Application::build(settings).await {
                    Ok(app) => app,
                    Err(e) => {
                        eprintln!("veranda: cannot start:\n{e}");
                        return ExitCode::from(2);
                    }
                };
                match app.run_until_stopped().await {
                    Ok(()) => ExitCode::SUCCESS,
                    Err(e) => {
                        eprintln!("veranda: {e}");
                        ExitCode::FAILURE
                    }
                }
            })
        }
    }
}

/// Turns transparent huge pages off for this process, as databases that keep a large cache
/// in memory advise (Redis warns at start-up when they are on). mimalloc asks the kernel for
/// huge pages for its arenas, so each first touch of a 2 MiB region is a fault that zeroes
/// all of it, on whichever request thread touched it. While the store's page cache grows (the
/// first tens of seconds of heavy load after a start) that was the slow tail: paced RecordHit's
/// p99 over the first 5 s was 109 and 151 ms with them, 1.9 and 24 ms without, and the server
/// took 50-80 MiB more memory throughout (`benches/reports/store.md`). A failure (a kernel
/// without the setting, a system-call filter) is logged and changes nothing else.
fn without_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    if let Err(error) = rustix::thread::disable_transparent_huge_pages(true) {
        tracing::warn!(%error, "cannot turn transparent huge pages off for this process");
    }
}
