//! Logging: tracing with an env filter, written to stderr.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; `RUST_LOG` wins over the `log` setting.
pub fn init(filter: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(filter));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi).try_init();
}
