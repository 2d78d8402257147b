//! The second pass: references between files, url clashes, the home page, navigation.

use std::collections::HashMap;

use super::{Loader, Noted, Reference};
use crate::site::content::{Collection, CollectionKind, NavLink, Navigation, Page};
use crate::site::settings::SiteSettings;

impl Loader {
    /// Checks everything that spans files, once all files are read.
    pub(super) fn cross_check(
        &mut self,
        settings: Option<&SiteSettings>,
        navigation: &Navigation,
        pages: &[Page],
        collections: &[Collection],
    ) {
        for noted in std::mem::take(&mut self.references) {
            self.check_reference(&noted, collections);
        }
        self.check_urls();
        if !pages.is_empty() && !pages.iter().any(|p| p.url == "/") && !collections.iter().any(|c| c.url == "/") {
            self.problems.add("pages", "", "no page has the url / (the home page)");
        }
        let known: Vec<String> = self.urls.iter().map(|(url, _, _)| url.clone()).collect();
        for (list, links) in [("main", &navigation.main), ("footer", &navigation.footer)] {
            for (i, link) in links.iter().enumerate() {
                self.check_nav_link(list, i, link, &known);
            }
        }
        if let Some(form_id) = settings.and_then(|s| s.popup_overlay.form_id.as_ref()) {
            if !self.form_ids.contains_key(form_id) {
                let message = format!("no form or newsletter block has the form id '{form_id}'");
                self.problems.add("site.toml", "popupOverlay.formId", message);
            }
        }
    }

    fn check_reference(&mut self, noted: &Noted, collections: &[Collection]) {
        match &noted.reference {
            Reference::Collection { name, kind } => match collections.iter().find(|c| &c.name == name) {
                None => {
                    let message = format!("there is no collection '{name}' (no collections/{name}/collection.toml)");
                    self.problems.add(&noted.file, noted.field.as_str(), message);
                }
                Some(collection) if kind.is_some_and(|k| k != collection.kind) => {
                    let message = format!("'{name}' must be an events collection");
                    self.problems.add(&noted.file, noted.field.as_str(), message);
                }
                Some(_) => {}
            },
            Reference::Product(reference) => {
                let found = reference.split_once('/').and_then(|(name, url_id)| {
                    let collection = collections.iter().find(|c| c.name == name)?;
                    let item = collection.items.iter().find(|i| i.url_id == url_id)?;
                    Some(collection.kind == CollectionKind::Products && item.product.is_some())
                });
                let message = match found {
                    Some(true) => return,
                    Some(false) => format!("'{reference}' is not a product"),
                    None => format!("there is no product '{reference}' (written as collection/urlId)"),
                };
                self.problems.add(&noted.file, noted.field.as_str(), message);
            }
        }
    }

    /// Every page, collection and item url must be unique.
    fn check_urls(&mut self) {
        let mut first: HashMap<&str, &str> = HashMap::new();
        let mut clashes = Vec::new();
        for (url, file, field) in &self.urls {
            match first.get(url.as_str()) {
                Some(other) => {
                    clashes.push((file.clone(), field.clone(), format!("url '{url}' is also used by {other}")))
                }
                None => {
                    first.insert(url, file);
                }
            }
        }
        for (file, field, message) in clashes {
            self.problems.add(&file, field, message);
        }
    }

    fn check_nav_link(&mut self, list: &str, i: usize, link: &NavLink, known: &[String]) {
        let field = format!("{list}[{i}].url");
        let url = link.url.as_str();
        let external = ["https://", "http://", "mailto:", "tel:"].iter().any(|p| url.starts_with(p));
        if external {
            return;
        }
        if !url.starts_with('/') {
            let message = format!("'{url}' must be a path starting with / or an http(s), mailto: or tel: link");
            self.problems.add("navigation.toml", field, message);
            return;
        }
        let path = crate::site::site_path(url.split(['?', '#']).next().unwrap_or("/"));
        if !known.contains(&path) && path != "/search" {
            self.problems.add("navigation.toml", field, format!("no page or collection has the url '{path}'"));
        }
    }
}
