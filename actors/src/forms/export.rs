//! Submissions as CSV for the owner: a header row (`submittedAt`, then the form's field
//! ids), one row per submission, RFC 4180 quoting, CRLF line ends. A cell that a
//! spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or carriage
//! return) is prefixed with `'`.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::record::StoredSubmission;
use super::value::FieldValue;

/// The first column: when the submission was stored (RFC 3339, UTC).
pub const SUBMITTED_AT_COLUMN: &str = "submittedAt";

/// The CSV of `rows` with one column per id of `field_ids`.
pub fn to_csv<'a>(field_ids: impl IntoIterator<Item = &'a str> + Clone, rows: &[StoredSubmission]) -> String {
    let mut out = String::new();
    let header =
        std::iter::once(SUBMITTED_AT_COLUMN.to_string()).chain(field_ids.clone().into_iter().map(str::to_string));
    push_row(&mut out, header);
    for row in rows {
        let at = OffsetDateTime::from_unix_timestamp_nanos(i128::from(row.submitted_at) * 1_000_000)
            .ok()
            .and_then(|t| t.format(&Rfc3339).ok())
            .unwrap_or_default();
        let cells = field_ids.clone().into_iter().map(|id| row.values.get(id).map(cell_text).unwrap_or_default());
        push_row(&mut out, std::iter::once(at).chain(cells));
    }
    out
}

/// A value as one cell: lists joined with `, ` (empty parts left out), likert answers
/// as `question: answer, answer` joined with `; `.
pub fn cell_text(value: &FieldValue) -> String {
    match value {
        FieldValue::Text(text) => text.clone(),
        FieldValue::List(items) => {
            items.iter().filter(|s| !s.trim().is_empty()).cloned().collect::<Vec<_>>().join(", ")
        }
        FieldValue::Map(answers) => {
            answers.iter().map(|(q, a)| format!("{q}: {}", a.join(", "))).collect::<Vec<_>>().join("; ")
        }
    }
}

fn push_row(out: &mut String, cells: impl Iterator<Item = String>) {
    let cells: Vec<String> = cells.map(|c| escape(&c)).collect();
    out.push_str(&cells.join(","));
    out.push_str("\r\n");
}

/// One cell, defused against formulas and quoted when it must be.
pub fn escape(cell: &str) -> String {
    let defused =
        if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{cell}") } else { cell.to_string() };
    if defused.contains(['"', ',', '\r', '\n']) {
        format!("\"{}\"", defused.replace('"', "\"\""))
    } else {
        defused
    }
}
