//! A map block's checks (001 §3 "Map widget"): its location and zoom in range and its style
//! one of the six, each reported under the field the site file used (flat, or inside the
//! view config's `location` or `ui`).

use super::Loader;
use crate::site::blocks::{MapBlock, MAP_STYLES};

impl Loader {
    /// Checks the map at `path` of `file`; `taken` names the flat fields whose value came
    /// from the view config, with the config path they came from.
    pub(super) fn check_map(&mut self, file: &str, path: &str, map: &MapBlock, taken: &[(&str, &str)]) {
        let at = |name: &str| {
            let field = taken.iter().find(|(flat, _)| *flat == name).map_or(name, |(_, nested)| nested);
            format!("{path}.{field}")
        };
        if !(-90.0..=90.0).contains(&map.map_lat) {
            self.problems.add(file, at("mapLat"), "must be between -90 and 90");
        }
        if !(-180.0..=180.0).contains(&map.map_lng) {
            self.problems.add(file, at("mapLng"), "must be between -180 and 180");
        }
        if map.marker_lat.is_some_and(|lat| !(-90.0..=90.0).contains(&lat)) {
            self.problems.add(file, at("markerLat"), "must be between -90 and 90");
        }
        if map.marker_lng.is_some_and(|lng| !(-180.0..=180.0).contains(&lng)) {
            self.problems.add(file, at("markerLng"), "must be between -180 and 180");
        }
        if map.map_zoom > 22 {
            self.problems.add(file, at("mapZoom"), "must be between 0 and 22");
        }
        self.one_of(file, &at("style"), Some(&map.style), &MAP_STYLES.map(|(name, _)| name));
    }
}
