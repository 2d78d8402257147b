//! A newSwipe slideshow's swipe options (001 §5): what a drag does past each end of the
//! slideshow (`boundaries`) and where a released drag settles (`snapPoints`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a drag past one end of a newSwipe slideshow does (001 §5: "none, hard or inertial").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub enum SwipeBoundary {
    /// `none`: no boundary; the slideshow wraps (past the last slide comes the first).
    #[default]
    #[serde(rename = "none")]
    Wrap,
    /// `hard`: the slide stops at the edge.
    #[serde(rename = "hard")]
    Hard,
    /// `inertial`: the slide moves on with resistance and springs back on release.
    #[serde(rename = "inertial")]
    Inertial,
}

/// The boundaries at the two ends of a newSwipe slideshow; an end not given has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct SwipeBoundaries {
    /// Before the first slide (a drag to the right on it).
    #[serde(default)]
    pub start: SwipeBoundary,
    /// After the last slide (a drag to the left on it).
    #[serde(default)]
    pub end: SwipeBoundary,
}

/// Where a released newSwipe drag settles: `"none"`, or percentages of the slide's width
/// such as `["0%", "50%"]` (001 §5: "snapPoints end with % or be none"); the loader refuses
/// any other word or entry.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(untagged)]
pub enum SnapPoints {
    /// A word: only `none` is allowed.
    Named(String),
    /// Percentages, each a number from 0 to 100 followed by `%`.
    At(Vec<String>),
}

impl<'de> Deserialize<'de> for SnapPoints {
    /// A word or a list, and for anything else a message an owner can act on.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged, expecting = "must be none or a list of percentages such as [\"0%\", \"50%\"]")]
        enum Written {
            Named(String),
            At(Vec<String>),
        }
        Ok(match Written::deserialize(deserializer)? {
            Written::Named(word) => Self::Named(word),
            Written::At(points) => Self::At(points),
        })
    }
}

/// The word that turns snap points off.
pub const NO_SNAP_POINTS: &str = "none";

/// The percentage of one snap point (`"50%"` → 50), or `None` when it is not a number from
/// 0 to 100 followed by `%`.
pub fn snap_percent(point: &str) -> Option<f64> {
    let number = point.trim().strip_suffix('%')?.trim().parse::<f64>().ok()?;
    (number.is_finite() && (0.0..=100.0).contains(&number)).then_some(number)
}
