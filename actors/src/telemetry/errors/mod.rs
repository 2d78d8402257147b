//! JavaScript error reports: the record parsed at the edge, its fingerprint, the groups
//! (issues) errors fall into, the per-page-load cap, the [`ErrorBook`] request threads record into, the
//! [`ErrorQueue`] actor that publishes and writes what it gathers, and how records are stored.

mod book;
mod cap;
mod fingerprint;
mod groups;
mod hourly;
mod queue;
mod report;
mod stored;

pub use book::{ErrorBook, ErrorIntake, MAX_UNWRITTEN, PUBLISHED_ERRORS_PER_INTERVAL, RECENT_ERRORS};
pub use cap::{Admission, PageLoadCaps, PageLoadKey};
pub use fingerprint::{fingerprint, normalise_file, normalise_message};
pub use groups::{ErrorGroup, ErrorGroups, MAX_GROUPS};
pub use hourly::{ErrorHours, ErrorHoursReport, ErrorPoint, GroupHours};
pub use queue::{ErrorQueue, FlushErrors, GetErrorGroups, GetRecentErrors, ERROR_FLUSH_INTERVAL};
pub use report::{parse_reports, ErrorReport, ReportError, MAX_RECORDS_PER_SEND, MAX_REPORT_COUNT, MAX_STACK_CHARS};
pub use stored::{decode_entry, Entry, RecentError, SealedEntry, RECORDS_PER_ENTRY};
