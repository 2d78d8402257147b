//! Live streams for the dashboard: edits and errors, each event numbered `(epoch, offset)`.
