//! The image size ladder and the `format` query parameter that picks a rung.
//!
//! Image URLs ask for a width as `?format=750w` (the `queryString` size format of
//! 001 §3); `?format=original`, or no `format` at all, asks for the original file.
//! Any other value is refused so that the cache holds at most seven variants per image.

use std::fmt;

/// The widths an image is served at, widest first (001 §9).
pub const SIZE_LADDER: [u32; 7] = [2500, 1500, 1000, 750, 500, 300, 100];

/// What an image request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestedSize {
    /// The original file, as uploaded.
    Original,
    /// One rung of [`SIZE_LADDER`], in pixels.
    Width(u32),
}

/// A `format` value that is not a rung of the ladder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Image format '{0}' is not available; use one of {ladder} or original.", ladder = LadderList)]
pub struct SizeError(pub String);

/// Formats the ladder as `2500w, 1500w, …`.
struct LadderList;

impl fmt::Display for LadderList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, width) in SIZE_LADDER.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{width}w")?;
        }
        Ok(())
    }
}

impl RequestedSize {
    /// Parses the value of the `format` query parameter (absent means the original).
    pub fn parse(format: Option<&str>) -> Result<RequestedSize, SizeError> {
        let Some(value) = format else { return Ok(RequestedSize::Original) };
        if value == "original" {
            return Ok(RequestedSize::Original);
        }
        value
            .strip_suffix('w')
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|w| SIZE_LADDER.contains(w) && !value.starts_with('+') && !value.starts_with('0'))
            .map(RequestedSize::Width)
            .ok_or_else(|| SizeError(value.chars().take(40).collect()))
    }

    /// Reads `format` from a raw query string; a query that cannot be decoded is refused.
    pub fn from_query(query: &str) -> Result<RequestedSize, SizeError> {
        let pairs: Vec<(String, String)> =
            serde_urlencoded::from_str(query).map_err(|_| SizeError(query.chars().take(40).collect()))?;
        let format = pairs.iter().rev().find(|(k, _)| k == "format").map(|(_, v)| v.as_str());
        RequestedSize::parse(format)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rung_of_the_ladder_parses() {
        for width in SIZE_LADDER {
            assert_eq!(RequestedSize::parse(Some(&format!("{width}w"))), Ok(RequestedSize::Width(width)));
        }
        assert_eq!(RequestedSize::parse(None), Ok(RequestedSize::Original));
        assert_eq!(RequestedSize::parse(Some("original")), Ok(RequestedSize::Original));
    }

    #[test]
    fn widths_off_the_ladder_are_refused() {
        for bad in ["751w", "750", "w", "", "0750w", "+750w", "750W", "-100w", "99999999999w", "2500ww"] {
            assert!(RequestedSize::parse(Some(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_refusal_names_the_ladder() {
        let message = RequestedSize::parse(Some("751w")).expect_err("not on the ladder").to_string();
        assert_eq!(
            message,
            "Image format '751w' is not available; use one of 2500w, 1500w, 1000w, 750w, 500w, 300w, 100w or original."
        );
    }

    #[test]
    fn the_format_is_read_from_the_query() {
        assert_eq!(RequestedSize::from_query("format=500w&v=2"), Ok(RequestedSize::Width(500)));
        assert_eq!(RequestedSize::from_query(""), Ok(RequestedSize::Original));
        assert_eq!(RequestedSize::from_query("v=2"), Ok(RequestedSize::Original));
        assert!(RequestedSize::from_query("format=12w").is_err());
    }
}
