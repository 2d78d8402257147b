//! What an anonymous or under-privileged client behaving badly on purpose must not get: one file per topic.

mod errors_stream;
mod files_streaming;
mod places;
mod private_forms;
