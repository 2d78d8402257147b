//! `veranda`: wires telemetry, settings and start-up; everything else is in the library.

use std::process::ExitCode;

use clap::Parser;
use veranda_server::cli::{Cli, Command, UserCommand};
use veranda_server::settings::Settings;
use veranda_server::startup::Application;
use veranda_server::telemetry;

/// mimalloc: the request paths allocate many small, short-lived buffers (bodies, parsed
/// JSON, records), the pattern it is built for. Its gain over glibc malloc has not been
/// measured on its own; the ingest figures in `benches/reports/telemetry.md` are all with it.
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
