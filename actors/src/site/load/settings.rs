//! `site.toml` and `navigation.toml`.

use super::fields::{describe, Problems};
use super::{rules, Loader};
use crate::site::content::Navigation;
use crate::site::settings::{FeatureFlag, SiteSettings, SUPPORTED_CURRENCIES};

const SITE: &str = "site.toml";
const NAVIGATION: &str = "navigation.toml";

impl Loader {
    /// Reads `site.toml`; `None` when it is missing or its required parts are unusable.
    pub(super) fn settings(&mut self) -> Option<SiteSettings> {
        let table = self.read_table(SITE)?;
        let settings = parse_settings(table, &mut self.problems)?;
        check_settings(&settings, &mut self.problems);
        self.redirects = settings.redirect_policy();
        self.embeds = settings.embed_allow_list();
        Some(settings)
    }

    /// Reads `navigation.toml`, which is optional.
    pub(super) fn navigation(&mut self) -> Navigation {
        if !self.dir.join(NAVIGATION).exists() {
            return Navigation::default();
        }
        let Some(table) = self.read_table(NAVIGATION) else {
            return Navigation::default();
        };
        match toml::Value::Table(table).try_into::<Navigation>() {
            Ok(navigation) => navigation,
            Err(error) => {
                self.problems.add_de(NAVIGATION, "", &error);
                Navigation::default()
            }
        }
    }
}

/// Deserialises the settings. Serde stops at the first bad field, so a bad section is
/// reported, dropped (falling back to its defaults) and the rest tried again: one run
/// reports a problem in every section.
fn parse_settings(mut table: toml::Table, problems: &mut Problems) -> Option<SiteSettings> {
    let mut failed = false;
    for _ in 0..=table.len() {
        match toml::Value::Table(table.clone()).try_into::<SiteSettings>() {
            Ok(settings) => return (!failed).then_some(settings),
            Err(error) => {
                failed = true;
                let (field, message) = describe(&error, "");
                problems.add(SITE, field.as_str(), message);
                let section = field.split(['.', '[']).next().unwrap_or("").to_string();
                if section == "website" || table.remove(&section).is_none() {
                    return None;
                }
            }
        }
    }
    None
}

/// The rules serde cannot express.
fn check_settings(settings: &SiteSettings, problems: &mut Problems) {
    if let Some(problem) = rules::id_problem(&settings.website.id) {
        problems.add(SITE, "website.id", problem);
    }
    if !rules::is_http_url(&settings.website.base_url) {
        problems.add(
            SITE,
            "website.baseUrl",
            format!("'{}' must be an http:// or https:// URL", settings.website.base_url),
        );
    }
    if settings.website.title.trim().is_empty() {
        problems.add(SITE, "website.title", "must not be empty");
    }
    let currency = &settings.store.selected_currency;
    if !SUPPORTED_CURRENCIES.contains(&currency.as_str()) {
        problems.add(
            SITE,
            "store.selectedCurrency",
            format!("'{currency}' is not supported (one of {})", SUPPORTED_CURRENCIES.join(", ")),
        );
    }
    for (name, flag) in &settings.features {
        if let FeatureFlag::Experiment { variants, default } = flag {
            let field = format!("features.{name}");
            let total: u32 = variants.values().map(|share| u32::from(*share)).sum();
            if total != 100 {
                problems.add(SITE, format!("{field}.variants"), format!("shares add up to {total}, not 100"));
            }
            if !variants.contains_key(default) {
                problems.add(SITE, format!("{field}.default"), format!("'{default}' is not one of the variants"));
            }
        }
    }
    if let Some(problem) = settings.announcement_bar.url.as_deref().and_then(rules::link_problem) {
        problems.add(SITE, "announcementBar.url", problem);
    }
    if settings.popup_overlay.display_frequency < -1 {
        problems.add(SITE, "popupOverlay.displayFrequency", "must be -1 (never again) or a number of days");
    }
    for (i, entry) in settings.forms.redirect_allow_list.iter().enumerate() {
        if let Err(problem) = crate::site::redirect::parse_origin(entry) {
            problems.add(SITE, format!("forms.redirectAllowList[{i}]"), problem);
        }
    }
    for (i, entry) in settings.embeds.providers.iter().enumerate() {
        if let Some(problem) = crate::site::embeds::provider_problem(entry) {
            problems.add(SITE, format!("embeds.providers[{i}]"), problem);
        }
    }
    for (field, template) in settings.maps.tile_templates() {
        if let Some(problem) = crate::site::embeds::tile_url_problem(template) {
            problems.add(SITE, field, problem);
        }
    }
    check_fonts_and_comments(settings, problems);
    let seconds = settings.block_animations.duration_seconds;
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 10.0) {
        problems.add(SITE, "blockAnimations.durationSeconds", "must be a number of seconds above 0 and at most 10");
    }
}

/// Whether `text` is 1 to `max` characters, each allowed by `ok`.
fn made_of(text: &str, max: usize, ok: impl Fn(char) -> bool) -> bool {
    !text.is_empty() && text.chars().count() <= max && text.chars().all(ok)
}

/// A Google font `includeName`: a family name (letters, digits, spaces), optionally `:` and
/// its styles (`400,700italic`).
fn google_font_ok(name: &str) -> bool {
    let (family, styles) = name.split_once(':').unwrap_or((name, "x"));
    made_of(family.trim(), 100, |c| c.is_ascii_alphanumeric() || c == ' ')
        && made_of(styles, 100, |c| c.is_ascii_alphanumeric() || c == ',')
}

/// Font names and ids and the comment short name go into the addresses pages load from, so
/// each is held to the characters those services use.
fn check_fonts_and_comments(settings: &SiteSettings, problems: &mut Problems) {
    let w = &settings.website;
    for (i, name) in w.google_fonts.iter().enumerate() {
        if !google_font_ok(name) {
            problems.add(
                SITE,
                format!("website.googleFonts[{i}]"),
                format!("'{name}' is not a font family name (letters, digits and spaces, optionally ':' and styles such as 400,700)"),
            );
        }
    }
    let kit_id = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    if let Some(kit) = &w.typekit_id {
        if !made_of(kit, 32, kit_id) {
            problems.add(SITE, "website.typekitId", format!("'{kit}' is not a kit id (lowercase letters and digits)"));
        }
    }
    if w.typekit_id.is_none() && !w.typekit_fonts.is_empty() {
        problems.add(SITE, "website.typekitFonts", "fonts of a kit need the kit's website.typekitId");
    }
    for (i, font) in w.typekit_fonts.iter().enumerate() {
        if !made_of(&font.id, 100, |c| kit_id(c) || c == '-') {
            problems.add(SITE, format!("website.typekitFonts[{i}].id"), "must be lowercase letters, digits and dashes");
        }
        for (j, variation) in font.variations.iter().enumerate() {
            let b = variation.as_bytes();
            if !(b.len() == 2 && (b[0] == b'n' || b[0] == b'i') && (b'1'..=b'9').contains(&b[1])) {
                problems.add(
                    SITE,
                    format!("website.typekitFonts[{i}].variations[{j}]"),
                    format!("'{variation}' is not a variation such as n4 (normal 400) or i7 (italic 700)"),
                );
            }
        }
    }
    if let Some(name) = &settings.comments.disqus_shortname {
        if !made_of(name, 64, |c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-') {
            problems.add(
                SITE,
                "comments.disqusShortname",
                format!("'{name}' is not a short name (lowercase letters, digits and dashes)"),
            );
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_default_tile_address_has_the_three_parts() {
        assert_eq!(crate::site::embeds::tile_url_problem(crate::site::settings::DEFAULT_TILE_URL), None);
    }

    use super::*;

    const GOOD: &str = r#"
        [website]
        id = "5f2a9c0e4b1d7a3c8e6f0b12"
        title = "Test"
        baseUrl = "https://example.com"
    "#;

    #[test]
    fn good_settings_parse_with_defaults() {
        let mut problems = Problems::default();
        let table = toml::from_str(GOOD).expect("valid TOML");
        let settings = parse_settings(table, &mut problems).expect("settings parse");
        check_settings(&settings, &mut problems);
        assert!(problems.0.is_empty(), "{:?}", problems.0);
        assert_eq!(settings.store.selected_currency, "USD");
    }

    #[test]
    fn block_animations_are_off_by_default_and_checked() {
        let mut problems = Problems::default();
        let settings =
            parse_settings(toml::from_str(GOOD).expect("valid TOML"), &mut problems).expect("settings parse");
        assert_eq!(settings.block_animations.style, crate::site::settings::BlockAnimation::None);
        assert_eq!(settings.block_animations.duration_seconds, 0.3);
        let text = format!("{GOOD}\n[blockAnimations]\nstyle = 'fade'\ndurationSeconds = 0\n");
        let settings =
            parse_settings(toml::from_str(&text).expect("valid TOML"), &mut problems).expect("settings parse");
        assert_eq!(settings.block_animations.style, crate::site::settings::BlockAnimation::Fade);
        check_settings(&settings, &mut problems);
        let fields: Vec<&str> = problems.0.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["blockAnimations.durationSeconds"]);
        let text = format!("{GOOD}\n[blockAnimations]\nstyle = 'spin'\n");
        assert!(parse_settings(toml::from_str(&text).expect("valid TOML"), &mut problems).is_none());
        assert!(problems.0.iter().any(|p| p.field.starts_with("blockAnimations")), "{:?}", problems.0);
    }

    #[test]
    fn every_map_tile_address_is_checked_with_its_field() {
        let text = format!(
            "{GOOD}\n[maps]\nsatelliteTileUrl = 'https://imagery.example/{{z}}/{{y}}/{{x}}.jpg'\n\
             labelOverlayUrl = 'javascript:alert(1)'\nterrainTileUrl = 'https://t.example/tiles.png'\n\
             unlabelledTileUrl = 'https://u.example/{{z}}/{{x}}/{{y}}.png'\n"
        );
        let mut problems = Problems::default();
        let settings =
            parse_settings(toml::from_str(&text).expect("valid TOML"), &mut problems).expect("settings parse");
        check_settings(&settings, &mut problems);
        let fields: Vec<&str> = problems.0.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["maps.labelOverlayUrl", "maps.terrainTileUrl"]);
        assert_eq!(settings.maps.satellite_tile_url.as_deref(), Some("https://imagery.example/{z}/{y}/{x}.jpg"));
    }

    #[test]
    fn a_problem_in_each_section_is_reported() {
        let text = format!(
            "{GOOD}\n[store]\nselectedCurrency = 3\n[captcha]\nprovider = 'hcaptcha'\n[comments]\nnope = true\n"
        );
        let mut problems = Problems::default();
        let table = toml::from_str(&text).expect("valid TOML");
        assert!(parse_settings(table, &mut problems).is_none());
        let fields: Vec<&str> = problems.0.iter().map(|p| p.field.as_str()).collect();
        assert!(fields.contains(&"store.selectedCurrency"), "{fields:?}");
        assert!(fields.contains(&"captcha.provider"), "{fields:?}");
        assert!(fields.contains(&"comments.nope"), "{fields:?}");
    }

    #[test]
    fn font_names_kit_ids_and_the_comment_short_name_are_checked() {
        let text = format!(
            "{GOOD}\ngoogleFonts = ['Inter', 'Fraunces:400,700italic', 'Bad\"Name', 'Odd:4 0']\n\
             typekitId = 'abc1234'\ntypekitFonts = [{{ id = 'proxima-nova', variations = ['n4', 'i7', 'x9'] }}]\n\
             templateIdentifier = 'porch'\n[comments]\ncommentsEnabled = true\ndisqusShortname = 'bad name'\n"
        );
        let mut problems = Problems::default();
        let settings =
            parse_settings(toml::from_str(&text).expect("valid TOML"), &mut problems).expect("settings parse");
        check_settings(&settings, &mut problems);
        let fields: Vec<&str> = problems.0.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "website.googleFonts[2]",
                "website.googleFonts[3]",
                "website.typekitFonts[0].variations[2]",
                "comments.disqusShortname"
            ]
        );
        assert_eq!(settings.website.template_identifier, "porch");
        assert_eq!(settings.website.typekit_fonts[0].variations, ["n4", "i7", "x9"]);
        let text = format!("{GOOD}\ntypekitFonts = [{{ id = 'a' }}]\n");
        let mut problems = Problems::default();
        let settings =
            parse_settings(toml::from_str(&text).expect("valid TOML"), &mut problems).expect("settings parse");
        check_settings(&settings, &mut problems);
        let fields: Vec<&str> = problems.0.iter().map(|p| p.field.as_str()).collect();
        assert_eq!(fields, ["website.typekitFonts"]);
    }
}
