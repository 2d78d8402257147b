//! Map settings of the site (`[maps]`): the tiles the Leaflet map draws for each look a
//! map block may ask for, and the optional Google Maps key.

use serde::{Deserialize, Serialize};

/// The OpenStreetMap tile address template, the default of `[maps] tileUrl`.
pub const DEFAULT_TILE_URL: &str = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";

/// Map settings of the site (`[maps]`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MapSettings {
    /// Tile address template with `{z}`, `{x}` and `{y}` (and optionally `{s}`), used by
    /// the Leaflet map when no Google Maps key is set.
    #[serde(default = "default_tile_url")]
    pub tile_url: String,
    /// Attribution shown on the map, for every tile source configured here.
    #[serde(default = "default_tile_attribution")]
    pub tile_attribution: String,
    /// Imagery tiles drawn, unfiltered, for the Satellite style.
    #[serde(default)]
    pub satellite_tile_url: Option<String>,
    /// Transparent label tiles drawn over the imagery when a Satellite map shows labels.
    #[serde(default)]
    pub label_overlay_url: Option<String>,
    /// Tiles with relief shading, for maps that show terrain.
    #[serde(default)]
    pub terrain_tile_url: Option<String>,
    /// Tiles without place names, for maps that hide labels.
    #[serde(default)]
    pub unlabelled_tile_url: Option<String>,
    /// A Google Maps key: maps use Google Maps, and the places proxy is on.
    #[serde(default)]
    pub google_maps_api_key: Option<String>,
    /// Language of Google Maps labels (e.g. `en`).
    #[serde(default)]
    pub language: Option<String>,
    /// Region bias of Google Maps (e.g. `US`).
    #[serde(default)]
    pub region: Option<String>,
}

impl Default for MapSettings {
    fn default() -> Self {
        Self {
            tile_url: default_tile_url(),
            tile_attribution: default_tile_attribution(),
            satellite_tile_url: None,
            label_overlay_url: None,
            terrain_tile_url: None,
            unlabelled_tile_url: None,
            google_maps_api_key: None,
            language: None,
            region: None,
        }
    }
}

fn default_tile_url() -> String {
    DEFAULT_TILE_URL.to_string()
}

fn default_tile_attribution() -> String {
    "© OpenStreetMap contributors".to_string()
}

impl MapSettings {
    /// The Google Maps key, when one is set (and not blank).
    pub fn google_key(&self) -> Option<&str> {
        self.google_maps_api_key.as_deref().map(str::trim).filter(|k| !k.is_empty())
    }

    /// Every tile address template set, with its field name in `site.toml`.
    pub fn tile_templates(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("maps.tileUrl", Some(self.tile_url.as_str())),
            ("maps.satelliteTileUrl", self.satellite_tile_url.as_deref()),
            ("maps.labelOverlayUrl", self.label_overlay_url.as_deref()),
            ("maps.terrainTileUrl", self.terrain_tile_url.as_deref()),
            ("maps.unlabelledTileUrl", self.unlabelled_tile_url.as_deref()),
        ]
        .into_iter()
        .filter_map(|(field, template)| template.map(|t| (field, t)))
    }
}
