//! Shutdown signals: SIGTERM and SIGINT, registered at once (not when first polled).

use std::future::Future;

use tokio::signal::unix::{signal as unix_signal, SignalKind};

/// A future that resolves on the first SIGTERM or SIGINT. The handlers are installed
/// when this function returns, so no signal sent afterwards kills the process.
pub fn signal() -> std::io::Result<impl Future<Output = ()>> {
    let mut terminate = unix_signal(SignalKind::terminate())?;
    let mut interrupt = unix_signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => {},
            _ = interrupt.recv() => {},
        }
    })
}
