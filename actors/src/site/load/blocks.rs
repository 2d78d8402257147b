//! Blocks: `[[blocks]]` tables with `kind`, `id` and the kind's fields, checked per kind
//! and with their rich text sanitised.

use std::collections::HashSet;

use super::fields::Fields;
use super::rules::{MAX_BLOCKS_PER_LAYOUT, MAX_PRICE_CENTS};
use super::{Loader, Reference};
use crate::site::blocks::{
    video_embed_type, Block, BlockData, BlockKind, FieldKind, FormField, VideoEmbedType, INVALID_VIDEO_EMBED,
    VIDEO_MODES,
};
use crate::site::content::CollectionKind;
use crate::site::sanitize;

/// Summary designs.
const SUMMARY_DESIGNS: [&str; 4] = ["wall", "carousel", "list", "grid"];
/// Chart types.
const CHART_TYPES: [&str; 3] = ["bar", "line", "pie"];
/// Reservation providers.
const BOOKING_PROVIDERS: [&str; 2] = ["opentable", "tock"];
/// Sharing services.
const SHARING_SERVICES: [&str; 5] = ["email", "facebook", "x", "linkedin", "pinterest"];
/// Alignments of images and buttons.
const ALIGNMENTS: [&str; 3] = ["left", "center", "right"];

impl Loader {
    /// Parses the `[[blocks]]` array found at `field` of `file`; bad blocks are reported
    /// and left out.
    pub(super) fn blocks(&mut self, file: &str, field: &str, raw: Option<toml::Value>) -> Vec<Block> {
        let values = match raw {
            None => return Vec::new(),
            Some(toml::Value::Array(values)) => values,
            Some(_) => {
                self.problems.add(file, field, "must be an array of [[blocks]] tables");
                return Vec::new();
            }
        };
        if values.len() > MAX_BLOCKS_PER_LAYOUT {
            let message = format!("has {} blocks; a layout may have at most {MAX_BLOCKS_PER_LAYOUT}", values.len());
            self.problems.add(file, field, message);
        }
        let mut blocks = Vec::new();
        for (i, value) in values.into_iter().enumerate() {
            let path = format!("{field}[{i}]");
            let toml::Value::Table(table) = value else {
                self.problems.add(file, path, "must be a table");
                continue;
            };
            if let Some(block) = self.block(file, &path, table) {
                blocks.push(block);
            }
        }
        blocks
    }

    fn block(&mut self, file: &str, path: &str, table: toml::Table) -> Option<Block> {
        let mut fields = Fields::new(table, file, path, &mut self.problems);
        let kind_name: Option<String> = fields.required("kind");
        let id: Option<String> = fields.required("id");
        let rest = fields.into_rest();
        if let Some(id) = &id {
            self.claim_id(file, &format!("{path}.id"), id);
        }
        let kind_name = kind_name?;
        let Some(kind) = BlockKind::from_name(&kind_name) else {
            let known: Vec<&str> = BlockKind::ALL.iter().map(|k| k.name()).collect();
            let message = format!("'{kind_name}' is not a block kind (one of {})", known.join(", "));
            self.problems.add(file, format!("{path}.kind"), message);
            return None;
        };
        let mut rest = rest;
        if kind == BlockKind::Gallery {
            gallery::read_whole_numbers(&mut rest);
        }
        let given: Vec<String> = rest.keys().cloned().collect();
        let mut data = match BlockData::parse(kind, toml::Value::Table(rest)) {
            Ok(data) => data,
            Err(error) => {
                self.problems.add_de(file, path, &error);
                return None;
            }
        };
        if let BlockData::Map(map) = &mut data {
            let taken = map.fold_view_config(|name| given.iter().any(|g| g == name));
            self.check_map(file, path, map, &taken);
        }
        self.check_block(file, path, &mut data);
        Some(Block { id: id?, data })
    }

    /// The rules of each kind that serde cannot express; sanitises rich text in place.
    fn check_block(&mut self, file: &str, path: &str, data: &mut BlockData) {
        let at = |field: &str| format!("{path}.{field}");
        match data {
            BlockData::Text(text) => text.html = sanitize::rich_text(&text.html),
            BlockData::Image(image) => {
                self.check_file(file, &at("src"), "images", &image.src);
                if image.image_dimensions.is_none() {
                    image.image_dimensions = self.image_size(&image.src).map(|(w, h)| format!("{w}x{h}"));
                }
                self.require_alt(file, &at("alt"), &image.alt);
                self.one_of(file, &at("alignment"), image.alignment.as_deref(), &ALIGNMENTS);
                self.one_of(file, &at("cropMode"), image.crop_mode.as_deref(), &["cover", "contain", "none"]);
                self.check_link(file, &at("clickThroughUrl"), image.click_through_url.as_deref());
                self.check_image_sizes(file, path, image);
            }
            BlockData::Video(video) => {
                if video_embed_type(&video.html) == VideoEmbedType::Invalid {
                    self.problems.add(file, at("html"), INVALID_VIDEO_EMBED);
                } else if let Err(crate::site::embeds::EmbedRefusal::NotAllowed(src)) =
                    crate::site::embeds::video_embed(&video.html, &self.embeds)
                {
                    self.problems.add(file, at("html"), crate::site::embeds::not_allowed_message(&src));
                }
                self.one_of(file, &at("mode"), video.mode.as_deref(), &VIDEO_MODES);
                video.html = sanitize::embed(&video.html);
                self.check_link(file, &at("url"), video.url.as_deref());
                if let Some(thumbnail) = &video.thumbnail {
                    self.check_file(file, &at("thumbnail"), "images", thumbnail);
                }
            }
            BlockData::Embed(embed) => embed.html = sanitize::embed_block(&embed.html),
            // Checked by `check_map` once its view config is folded in.
            BlockData::Map(_) => {}
            BlockData::Form(form) => {
                self.claim_form_id(file, &at("formId"), &form.form_id);
                self.check_form_fields(file, path, &form.fields);
                form.post_submit_html = sanitize::rich_text(&form.post_submit_html);
                if form.success_redirect.as_deref().is_some_and(|r| !self.redirects.allows(r)) {
                    let message = "must be a path on this site (starting with /) or an address on the site's own \
                                   origin or one listed in [forms] redirectAllowList of site.toml";
                    self.problems.add(file, at("successRedirect"), message);
                }
            }
            BlockData::Newsletter(newsletter) => {
                self.claim_form_id(file, &at("formId"), &newsletter.form_id);
                if newsletter.mailing_list.trim().is_empty() {
                    self.problems.add(file, at("mailingList"), "must name a mailing list");
                }
            }
            BlockData::DonationButton(donation) => {
                for (i, amount) in donation.suggested_amounts_cents.iter().enumerate() {
                    if *amount == 0 || *amount > MAX_PRICE_CENTS {
                        self.problems.add(
                            file,
                            format!("{path}.suggestedAmountsCents[{i}]"),
                            "must be 1 to 100000000 cents",
                        );
                    }
                }
            }
            BlockData::Accordion(accordion) => {
                if accordion.accordion_items.is_empty() {
                    self.problems.add(file, at("accordionItems"), "needs at least one item");
                }
                for item in &mut accordion.accordion_items {
                    item.html = sanitize::rich_text(&item.html);
                }
            }
            BlockData::Marquee(marquee) => {
                self.one_of(file, &at("animationDirection"), Some(&marquee.animation_direction), &["left", "right"])
            }
            BlockData::ScaledText(scaled) => {
                if scaled.level > 4 {
                    self.problems.add(file, at("level"), "must be 0 (paragraph) to 4");
                }
            }
            BlockData::Button(button) => {
                self.check_link(file, &at("clickthroughUrl"), Some(&button.clickthrough_url));
                self.one_of(file, &at("alignment"), Some(&button.alignment), &ALIGNMENTS);
                self.one_of(file, &at("size"), Some(&button.size), &["small", "medium", "large"]);
            }
            BlockData::MemberArea(area) => {
                if area.pricing_options.len() != 2 {
                    let message = format!("needs exactly two pricing options, not {}", area.pricing_options.len());
                    self.problems.add(file, at("pricingOptions"), message);
                }
                for (i, option) in area.pricing_options.iter().enumerate() {
                    let field = format!("{path}.pricingOptions[{i}].billingPeriod");
                    self.one_of(file, &field, Some(&option.billing_period), &["weekly", "monthly", "yearly"]);
                    if option.price_cents > MAX_PRICE_CENTS {
                        self.problems.add(
                            file,
                            format!("{path}.pricingOptions[{i}].priceCents"),
                            "is more than 100000000 cents",
                        );
                    }
                }
            }
            BlockData::Summary(summary) => {
                self.one_of(file, &at("design"), Some(&summary.design), &SUMMARY_DESIGNS);
                let reference = Reference::Collection { name: summary.collection.clone(), kind: None };
                self.note(file, &at("collection"), reference);
            }
            BlockData::Gallery(gallery) => self.check_gallery(file, path, gallery),
            BlockData::Audio(audio) => self.check_file(file, &at("src"), "files", &audio.src),
            BlockData::Calendar(calendar) => {
                let reference =
                    Reference::Collection { name: calendar.collection.clone(), kind: Some(CollectionKind::Events) };
                self.note(file, &at("collection"), reference);
            }
            BlockData::Chart(chart) => {
                self.one_of(file, &at("chartType"), Some(&chart.chart_type), &CHART_TYPES);
                for (i, series) in chart.series.iter().enumerate() {
                    if series.values.len() != chart.labels.len() {
                        let message = format!("has {} values for {} labels", series.values.len(), chart.labels.len());
                        self.problems.add(file, format!("{path}.series[{i}].values"), message);
                    }
                }
            }
            BlockData::Search(search) => {
                if let Some(name) = &search.collection {
                    let reference = Reference::Collection { name: name.clone(), kind: None };
                    self.note(file, &at("collection"), reference);
                }
            }
            BlockData::TourDates(tour) => {
                for (i, date) in tour.dates.iter().enumerate() {
                    if !super::rules::is_date(&date.date) {
                        let message = format!("'{}' must be a date like 2024-05-31", date.date);
                        self.problems.add(file, format!("{path}.dates[{i}].date"), message);
                    }
                    self.check_link(file, &format!("{path}.dates[{i}].ticketUrl"), date.ticket_url.as_deref());
                }
            }
            BlockData::RestaurantBooking(booking) => {
                self.one_of(file, &at("provider"), Some(&booking.provider), &BOOKING_PROVIDERS)
            }
            BlockData::MenuTabs(menu) => {
                if menu.tabs.is_empty() {
                    self.problems.add(file, at("tabs"), "needs at least one tab");
                }
            }
            BlockData::SocialSharing(sharing) => {
                for (i, service) in sharing.services.iter().enumerate() {
                    self.one_of(file, &format!("{path}.services[{i}]"), Some(service), &SHARING_SERVICES);
                }
                if let Some(name) = &sharing.follow_username {
                    let valid =
                        (1..=15).contains(&name.len()) && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                    if !valid {
                        self.problems.add(file, at("followUsername"), "must be 1 to 15 letters, digits or underscores");
                    }
                }
            }
            BlockData::Product(product) => self.note(file, &at("product"), Reference::Product(product.product.clone())),
            BlockData::Cart(cart) => self.one_of(file, &at("variant"), Some(&cart.variant), &["full", "badge"]),
        }
    }

    fn require_alt(&mut self, file: &str, field: &str, alt: &str) {
        if alt.trim().is_empty() {
            self.problems.add(file, field, "every image needs alternative text");
        }
    }

    /// Reports a link that is set and could run code or lead nowhere.
    fn check_link(&mut self, file: &str, field: &str, url: Option<&str>) {
        if let Some(problem) = url.and_then(super::rules::link_problem) {
            self.problems.add(file, field, problem);
        }
    }

    /// Reports `value` when it is set and not one of `allowed`.
    fn one_of(&mut self, file: &str, field: &str, value: Option<&str>, allowed: &[&str]) {
        if let Some(value) = value.filter(|v| !allowed.contains(v)) {
            self.problems.add(file, field, format!("'{value}' must be one of {}", allowed.join(", ")));
        }
    }

    fn claim_form_id(&mut self, file: &str, field: &str, form_id: &str) {
        if form_id.trim().is_empty() {
            self.problems.add(file, field, "must not be empty");
        } else if let Some(first) = self.form_ids.get(form_id) {
            let message = format!("form id '{form_id}' is already used by {first}");
            self.problems.add(file, field, message);
        } else {
            self.form_ids.insert(form_id.to_string(), format!("{file} {field}"));
        }
    }

    fn check_form_fields(&mut self, file: &str, path: &str, fields: &[FormField]) {
        if fields.is_empty() {
            self.problems.add(file, format!("{path}.fields"), "a form needs at least one field");
        }
        let mut seen = HashSet::new();
        for (i, field) in fields.iter().enumerate() {
            let at = format!("{path}.fields[{i}]");
            if field.id.trim().is_empty() {
                self.problems.add(file, format!("{at}.id"), "must not be empty");
            } else if !seen.insert(field.id.as_str()) {
                self.problems.add(
                    file,
                    format!("{at}.id"),
                    format!("'{}' is used by two fields of this form", field.id),
                );
            }
            let needs_options =
                matches!(field.kind, FieldKind::Radio | FieldKind::Checkbox | FieldKind::Select | FieldKind::Likert);
            if needs_options && field.options.is_empty() {
                self.problems.add(file, format!("{at}.options"), "this field kind needs options");
            }
        }
    }
}

#[cfg(test)]
mod form_tests;
mod gallery;
mod image;
mod map;
#[cfg(test)]
mod test_site;
