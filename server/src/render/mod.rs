//! Server-side rendering of published pages (maud): complete HTML, readable without
//! JavaScript. Every block element carries `id="block-<id>"`, `data-block-type` and
//! `data-block-json`; the page context is embedded as JSON for the loader.
//!
//! - [`layout`]: the document around the body (head, header, footer, dialogs);
//!   [`announcement`]: the announcement bar and its dismissal cookie.
//! - [`bodies`]: the main content of each page type; [`auth_pages`]: the lock screen
//!   and login forms.
//! - [`blocks`]: one renderer per block kind, grouped by area.
//! - [`money`], [`util`], [`style`]: prices, escaping and URLs, the inline stylesheet and
//!   the design tokens ([`TOKENS`], which the dashboard inlines too).

mod announcement;
mod auth_pages;
mod blocks;
mod bodies;
mod layout;
pub mod money;
mod style;
pub mod util;

#[cfg(test)]
mod tests;

use veranda_actors::context::PageContext;
use veranda_actors::site::settings::HeaderFooter;
use veranda_actors::site::slide_links::slide_key;
use veranda_actors::site::{Collection, Item, Page, SearchHit, Site};

use crate::assets::Assets;

pub use announcement::{AnnouncementId, ANNOUNCEMENT_COOKIE};
pub use auth_pages::LoginView;
pub use blocks::{block_content, BlockCtx};
pub use style::TOKENS;

/// Everything needed to render one published page.
pub struct PageView<'a> {
    /// The site.
    pub site: &'a Site,
    /// The page context, embedded as JSON.
    pub context: &'a PageContext,
    /// Built client assets (loader script and styles).
    pub assets: &'a Assets,
    /// What the page shows.
    pub body: PageBody<'a>,
    /// `/?logout=true`: show the 'Logout Successful' information dialog.
    pub logout_dialog: bool,
    /// The announcement the visitor closed (the `ss_announcementBarDismissed` cookie), left
    /// out of the page while it is the current one.
    pub dismissed_announcement: Option<AnnouncementId>,
}

/// The main content of a page, by page type.
pub enum PageBody<'a> {
    /// A standalone page with its blocks.
    Page(&'a Page),
    /// A collection's list or grid, already filtered.
    Collection { collection: &'a Collection, items: Vec<&'a Item> },
    /// One item of a collection.
    Item { collection: &'a Collection, item: &'a Item },
    /// The search page with the query and its hits.
    Search { query: String, collection: Option<String>, hits: Vec<SearchHit> },
    /// HTTP 404, page type 100.
    NotFound,
    /// A password-locked page: 'This page is locked', and its unlock form with the
    /// page's crumb and the last refusal, if any.
    LockScreen { title: String, crumb: String, error: Option<&'static str> },
    /// The login page (`/account/login`).
    Login(LoginView),
    /// A member-only page seen by a visitor: 'This page available only site members'.
    MembersOnly { title: String },
    /// A member area the signed-in account may not enter.
    MemberAreaDenied { title: String },
}

/// Renders a complete HTML document with the site's own header and footer.
pub fn render_page(view: &PageView<'_>) -> String {
    render_page_with(view, &view.site.settings.header_footer)
}

/// Today's date in UTC (`YYYY-MM-DD`): what decides which events are upcoming.
pub fn today() -> String {
    let today = time::OffsetDateTime::now_utc().date();
    format!("{:04}-{:02}-{:02}", today.year(), u8::from(today.month()), today.day())
}

/// Renders a complete HTML document with `header_footer`, the header and footer as
/// last edited.
pub fn render_page_with(view: &PageView<'_>, header_footer: &HeaderFooter) -> String {
    let ctx = BlockCtx {
        site: view.site,
        page_url: layout::canonical_url(view.site, &view.context.page_path),
        today: today(),
        page_path: view.context.page_path.clone(),
        linked_slide: match view.body {
            PageBody::Page(page) => slide_key(&page.url, &view.context.page_path).map(str::to_string),
            _ => None,
        },
    };
    layout::document(view, &ctx, header_footer).into_string()
}
