//! Micro-benchmarks of answering a published page: rendering the demo site's home page
//! (what every request did before the page cache, and what a signed-in visitor's request
//! still does), compressing it for one answer, and a cache hit (the key's lookup and the
//! kept brotli body).
//!
//! Run: `cargo bench -p veranda-benches --bench pages`.

use std::collections::BTreeMap;
use std::path::Path;

use actix_web::http::StatusCode;
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use veranda_actors::domain::enums::PageType;
use veranda_actors::site::{Resolved, Site};
use veranda_server::assets::Assets;
use veranda_server::compression::{compress, Coding, Effort};
use veranda_server::page_cache::{CachedPage, PageCache, PageKey};
use veranda_server::page_context::{self, ContextInput, VisitorIds};
use veranda_server::render::{render_page, PageBody, PageView};
use veranda_server::settings::PageSettings;

fn demo_site() -> Site {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo");
    Site::load(&dir).expect("the demo site loads")
}

/// The demo home page, rendered as an anonymous visitor sees it.
fn home(site: &Site, assets: &Assets) -> String {
    let services = PageSettings::default();
    let Some(Resolved::Page(page)) = site.resolve("/") else { panic!("the demo site has a home page") };
    let context = page_context::build(
        site,
        ContextInput {
            page_type: PageType::Page,
            path: "/",
            title: page.title.clone(),
            page_id: Some(&page.id),
            collection: None,
            item: None,
            filters: BTreeMap::new(),
            session: None,
            visitor: VisitorIds::default(),
            services: &services,
        },
    );
    render_page(&PageView {
        site,
        context: &context,
        assets,
        body: PageBody::Page(page),
        logout_dialog: false,
        dismissed_announcement: None,
    })
}

fn pages(c: &mut Criterion) {
    let site = demo_site();
    let assets = Assets::default();
    c.bench_function("pages/render_home", |b| b.iter(|| home(black_box(&site), &assets)));
    let html = home(&site, &assets);
    c.bench_function("pages/brotli_once_home", |b| {
        b.iter(|| compress(black_box(html.as_bytes()), Coding::Brotli, Effort::Once))
    });
    c.bench_function("pages/gzip_once_home", |b| {
        b.iter(|| compress(black_box(html.as_bytes()), Coding::Gzip, Effort::Once))
    });
    c.bench_function("pages/brotli_kept_home", |b| {
        b.iter(|| compress(black_box(html.as_bytes()), Coding::Brotli, Effort::Kept))
    });
    let cache = PageCache::new(32 << 20);
    let key = PageKey {
        site: 1,
        header_footer: 0,
        day: actix_web::cookie::time::Date::from_calendar_date(2026, actix_web::cookie::time::Month::November, 26)
            .expect("a date"),
        url_id: "/".into(),
        filters: BTreeMap::new(),
        dismissed_announcement: None,
        logout_dialog: false,
    };
    let kept = cache.insert(key.clone(), CachedPage::new(StatusCode::OK, html));
    cache.body(&key, &kept, Coding::Brotli);
    c.bench_function("pages/cache_hit_home_brotli", |b| {
        b.iter(|| {
            let page = cache.get(black_box(&key)).expect("kept");
            cache.body(&key, &page, Coding::Brotli)
        })
    });
}

criterion_group!(benches, pages);
criterion_main!(benches);
