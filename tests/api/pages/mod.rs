//! Pages as visitors get them: published pages and page types, the announcement bar, and
//! gallery deep links.

mod announcement_bar;
pub(crate) mod blog_urls;
mod cache;
mod context_values;
mod gallery_links;
mod map_config;
mod published;
