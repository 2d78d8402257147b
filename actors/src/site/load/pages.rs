//! Pages (`pages/*.toml`), collections (`collections/<name>/collection.toml`) and their
//! items (`collections/<name>/items/*.toml`).

use super::fields::Fields;
use super::rules::{
    self, MAX_CATEGORIES, MAX_CATEGORY_LEN, MAX_ORDERABLE_ITEMS, MAX_PRODUCTS_PER_COLLECTION, MAX_TAG_LEN,
};
use super::Loader;
use crate::domain::enums::{CollectionViewMode, ItemType, PublicationState};
use crate::site::content::{Access, Collection, CollectionKind, EventDetails, Item, Page, Product};
use crate::site::sanitize;
use crate::site::urls::{expand_blog_url, tokenize_blog_url};

impl Loader {
    /// Reads every page, sorted by file name.
    pub(super) fn pages(&mut self) -> Vec<Page> {
        let files = self.toml_files("pages");
        let mut pages = Vec::new();
        for (name, file) in files {
            if let Some(page) = self.page(&name, &file) {
                pages.push(page);
            }
        }
        let splashes = pages.iter().filter(|p| p.splash).count();
        if splashes > 1 {
            self.problems.add("pages", "", format!("{splashes} pages are marked splash; at most one may be"));
        }
        pages
    }

    fn page(&mut self, name: &str, file: &str) -> Option<Page> {
        let table = self.read_table(file)?;
        let mut fields = Fields::new(table, file, "", &mut self.problems);
        let id: Option<String> = fields.required("id");
        let url: Option<String> = fields.required("url");
        let title: Option<String> = fields.required("title");
        let description: String = fields.or_default("description");
        let access: Access = fields.or_default("access");
        let password_hash: Option<String> = fields.optional("passwordHash");
        let splash: bool = fields.or_default("splash");
        let raw_blocks = fields.raw("blocks");
        fields.finish();
        if let Some(id) = &id {
            self.claim_id(file, "id", id);
        }
        if let Some(url) = &url {
            self.claim_url(file, "url", url);
        }
        self.check_password(file, access, password_hash.as_deref());
        let blocks = self.blocks(file, "blocks", raw_blocks);
        Some(Page {
            id: id?,
            name: name.to_string(),
            url: url?,
            title: title?,
            description,
            access,
            password_hash,
            splash,
            blocks,
        })
    }

    /// Checks the url of a page or collection and keeps it for the clash check.
    fn claim_url(&mut self, file: &str, field: &str, url: &str) {
        match rules::url_problem(url) {
            Some(problem) => self.problems.add(file, field, problem),
            None => self.urls.push((url.to_string(), file.to_string(), field.to_string())),
        }
    }

    fn check_password(&mut self, file: &str, access: Access, hash: Option<&str>) {
        match (access, hash) {
            (Access::Password, None) => {
                self.problems.add(file, "passwordHash", "is required when access is \"password\"")
            }
            (Access::Password, Some(hash)) if !hash.starts_with("$argon2id$") => self.problems.add(
                file,
                "passwordHash",
                "must be an argon2id hash (a PHC string starting with $argon2id$)",
            ),
            (Access::Public | Access::Members, Some(_)) => {
                self.problems.add(file, "passwordHash", "is only used when access is \"password\"")
            }
            _ => {}
        }
    }

    /// Reads every collection, sorted by folder name.
    pub(super) fn collections(&mut self) -> Vec<Collection> {
        let mut folders: Vec<String> =
            self.entries("collections").into_iter().filter(|(_, is_dir)| *is_dir).map(|(n, _)| n).collect();
        folders.sort();
        folders.into_iter().filter_map(|name| self.collection(&name)).collect()
    }

    fn collection(&mut self, name: &str) -> Option<Collection> {
        let file = format!("collections/{name}/collection.toml");
        let table = self.read_table(&file)?;
        let mut fields = Fields::new(table, &file, "", &mut self.problems);
        let id: Option<String> = fields.required("id");
        let url: Option<String> = fields.required("url");
        let title: Option<String> = fields.required("title");
        let kind: Option<CollectionKind> = fields.required("kind");
        let view_mode: Option<CollectionViewMode> = fields.optional("viewMode");
        let access: Access = fields.or_default("access");
        let description: String = fields.or_default("description");
        let url_pattern: Option<String> = fields.optional("urlPattern");
        fields.finish();
        if let Some(id) = &id {
            self.claim_id(&file, "id", id);
        }
        if let Some(url) = &url {
            self.claim_url(&file, "url", url);
        }
        if access == Access::Password {
            self.problems.add(
                &file,
                "access",
                "a collection cannot have a password; use \"members\" or a password page",
            );
        }
        let kind = kind?;
        let view_mode = view_mode.unwrap_or(match kind {
            CollectionKind::Products => CollectionViewMode::Product,
            CollectionKind::Gallery => CollectionViewMode::Grid,
            CollectionKind::Blog | CollectionKind::Events => CollectionViewMode::List,
        });
        let pattern = url_pattern.and_then(|written| self.blog_url_pattern(&file, kind, &written));
        let mut items = Vec::new();
        for (stem, item_file) in self.toml_files(&format!("collections/{name}/items")) {
            if let Some(mut item) = self.item(kind, &stem, &item_file) {
                if let Some(pattern) = &pattern {
                    item.url_id = expand_blog_url(pattern, &item.published_on, &item.url_id);
                }
                if let Some(url) = &url {
                    let item_url = format!("{}/{}", url.trim_end_matches('/'), item.url_id);
                    self.urls.push((item_url, item_file, "urlId".into()));
                }
                items.push(item);
            }
        }
        if kind == CollectionKind::Products && items.len() > MAX_PRODUCTS_PER_COLLECTION {
            let message = format!("has {} products; at most {MAX_PRODUCTS_PER_COLLECTION} are allowed", items.len());
            self.problems.add(&format!("collections/{name}/items"), "", message);
        }
        // Galleries keep the order of their files, set by their owner; blogs and events sort by date.
        if kind == CollectionKind::Gallery && items.len() > MAX_ORDERABLE_ITEMS {
            let message = format!(
                "has {} items; a collection in its owner's order may have at most {MAX_ORDERABLE_ITEMS}",
                items.len()
            );
            self.problems.add(&format!("collections/{name}/items"), "", message);
        }
        let categories: std::collections::HashSet<&str> =
            items.iter().flat_map(|i| i.categories.iter().map(String::as_str)).collect();
        if categories.len() > MAX_CATEGORIES {
            let message =
                format!("has {} categories; a collection may have at most {MAX_CATEGORIES}", categories.len());
            self.problems.add(&format!("collections/{name}/items"), "", message);
        }
        sort_items(kind, &mut items);
        Some(Collection {
            id: id?,
            name: name.to_string(),
            url: url?,
            title: title?,
            kind,
            view_mode,
            access,
            description,
            items,
        })
    }

    /// The tokenized post URL pattern of a blog (000 §5 "Tokenized blog URL"), when `written`
    /// is one: only blogs have one, it must already be in its tokenized form (so what the
    /// owner wrote is what visitors see) and it must hold `%t`, the post's own slug.
    fn blog_url_pattern(&mut self, file: &str, kind: CollectionKind, written: &str) -> Option<String> {
        if kind != CollectionKind::Blog {
            self.problems.add(file, "urlPattern", "only a blog collection has a post URL pattern");
            return None;
        }
        let tokenized = tokenize_blog_url(written);
        if tokenized != written {
            let message = format!(
                "'{written}' would read as '{tokenized}': use lowercase letters, digits, / and - with the tokens \
                 %y, %m, %d and %t"
            );
            self.problems.add(file, "urlPattern", message);
            return None;
        }
        if !tokenized.contains("%t") {
            self.problems.add(file, "urlPattern", format!("'{written}' must contain %t, the post's own slug"));
            return None;
        }
        Some(tokenized)
    }

    fn item(&mut self, kind: CollectionKind, stem: &str, file: &str) -> Option<Item> {
        let table = self.read_table(file)?;
        let mut fields = Fields::new(table, file, "", &mut self.problems);
        let id: Option<String> = fields.required("id");
        let url_id: String = fields.optional("urlId").unwrap_or_else(|| stem.to_string());
        let title: Option<String> = fields.required("title");
        let record_type: ItemType = fields.optional("recordType").unwrap_or(match kind {
            CollectionKind::Blog => ItemType::Text,
            CollectionKind::Events => ItemType::Event,
            CollectionKind::Gallery => ItemType::Image,
            CollectionKind::Products => ItemType::StoreItem,
        });
        let state: PublicationState = fields.optional("state").unwrap_or(PublicationState::Published);
        let published_on: String = if kind == CollectionKind::Blog {
            fields.required("publishedOn").unwrap_or_default()
        } else {
            fields.or_default("publishedOn")
        };
        let author: String = fields.or_default("author");
        let excerpt: String = fields.or_default("excerpt");
        let body: String = fields.or_default("body");
        let image: Option<String> = fields.optional("image");
        let tags: Vec<String> = fields.or_default("tags");
        let categories: Vec<String> = fields.or_default("categories");
        let event: Option<EventDetails> = match kind {
            CollectionKind::Events => fields.required("event"),
            _ => fields.optional("event"),
        };
        let mut product: Option<Product> = match kind {
            CollectionKind::Products => fields.required("product"),
            _ => fields.optional("product"),
        };
        let raw_blocks = fields.raw("blocks");
        fields.finish();

        if let Some(id) = &id {
            self.claim_id(file, "id", id);
        }
        if let Some(problem) = rules::slug_problem(&url_id) {
            self.problems.add(file, "urlId", problem);
        }
        if !published_on.is_empty() && !rules::is_date(&published_on) {
            self.problems.add(file, "publishedOn", format!("'{published_on}' must be a date like 2024-05-31"));
        }
        if let Some(image) = &image {
            self.check_file(file, "image", "images", image);
        }
        self.check_labels(file, "tags", &tags, MAX_TAG_LEN);
        self.check_labels(file, "categories", &categories, MAX_CATEGORY_LEN);
        if let Some(event) = &event {
            self.check_event(file, kind, event);
        }
        if let (Some(product), Some(id)) = (product.as_mut(), id.as_deref()) {
            if kind != CollectionKind::Products {
                self.problems.add(file, "product", "only items of a products collection can be products");
            }
            self.check_product(file, id, product);
        }
        let blocks = self.blocks(file, "blocks", raw_blocks);
        let image_size = image.as_deref().and_then(|name| self.image_size(name));
        Some(Item {
            id: id?,
            url_id,
            title: title?,
            record_type,
            state,
            published_on,
            author,
            excerpt,
            body_html: sanitize::rich_text(&body),
            image,
            image_size,
            tags,
            categories,
            event,
            product,
            blocks,
        })
    }

    fn check_labels(&mut self, file: &str, field: &str, labels: &[String], max: usize) {
        for (i, label) in labels.iter().enumerate() {
            let length = label.chars().count();
            if length == 0 || length > max {
                let message = format!("'{label}' must be 1 to {max} characters (it has {length})");
                self.problems.add(file, format!("{field}[{i}]"), message);
            }
        }
    }

    fn check_event(&mut self, file: &str, kind: CollectionKind, event: &EventDetails) {
        if kind != CollectionKind::Events {
            self.problems.add(file, "event", "only items of an events collection can be events");
        }
        let start_ok = rules::is_date_time(&event.start);
        let end_ok = rules::is_date_time(&event.end);
        if !start_ok {
            self.problems.add(file, "event.start", format!("'{}' must look like 2024-06-01T18:30", event.start));
        }
        if !end_ok {
            self.problems.add(file, "event.end", format!("'{}' must look like 2024-06-01T20:00", event.end));
        }
        if start_ok && end_ok && event.end < event.start {
            self.problems.add(file, "event.end", "is before the start");
        }
    }
}

/// Blog posts newest first, events by start, everything else by file name.
fn sort_items(kind: CollectionKind, items: &mut [Item]) {
    match kind {
        CollectionKind::Blog => items.sort_by(|a, b| b.published_on.cmp(&a.published_on)),
        CollectionKind::Events => items.sort_by(|a, b| {
            let start = |i: &Item| i.event.as_ref().map(|e| e.start.clone()).unwrap_or_default();
            start(a).cmp(&start(b))
        }),
        CollectionKind::Gallery | CollectionKind::Products => {}
    }
}
