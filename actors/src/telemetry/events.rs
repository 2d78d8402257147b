//! The in-process stream of telemetry events the live dashboard consumes.

use serde::Serialize;

use super::stored::ErrorGroup;

/// How many events a slow subscriber may fall behind before it misses some.
pub const EVENT_BUFFER: usize = 1024;

/// Something that happened to visitor telemetry (past tense).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TelemetryEvent {
    /// A JavaScript error record was accepted.
    #[serde(rename_all = "camelCase")]
    ErrorRecorded {
        /// The group it belongs to.
        fingerprint: String,
        /// The error message.
        message: String,
        /// The page it happened on.
        url: String,
        /// When it was accepted (unix ms).
        at: u64,
    },
    /// An error group was created or its count changed.
    ErrorGrouped(ErrorGroup),
}
