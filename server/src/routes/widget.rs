//! `POST /api/widget/GetWidgetRendering` (spec 000 §7): form-encoded `widgetJSON`
//! (`type`, `id` without the `block-` prefix, `value` = the block's JSON) and, for event
//! summaries, `collectionId`. Renders a summary block from the site's public collections
//! and answers `{html}`, the block's content. Rendering changes nothing, so no crumb is
//! asked for; the body is bounded.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use veranda_actors::site::blocks::SummaryBlock;
use veranda_actors::site::{Access, Block, BlockData, CollectionKind, Site};

use crate::edge::no_store;
use crate::render::{block_content, BlockCtx};
use crate::state::AppState;

/// Largest accepted form body, in bytes.
pub const MAX_WIDGET_BODY: usize = 64 * 1024;

/// The route path.
pub const PATH: &str = "/api/widget/GetWidgetRendering";

/// Registers the route, with its body limit.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::resource(PATH).app_data(web::PayloadConfig::new(MAX_WIDGET_BODY)).route(web::post().to(render)));
}

/// The form fields.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct WidgetForm {
    #[serde(rename = "widgetJSON")]
    widget_json: Option<String>,
    collection_id: Option<String>,
}

/// The decoded `widgetJSON`.
#[derive(Debug, Deserialize)]
struct WidgetJson {
    #[serde(rename = "type")]
    kind: String,
    id: String,
    value: serde_json::Value,
}

/// Why a request is refused: a status and a message for the caller.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 400 for bad input, 404 for a collection the site does not show.
    pub status: u16,
    /// What is wrong.
    pub message: String,
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal { status: 400, message: message.into() }
}

/// The block content for a form body, or why not.
pub fn rendering(site: &Site, body: &[u8]) -> Result<String, Refusal> {
    let form: WidgetForm =
        serde_urlencoded::from_bytes(body).map_err(|e| bad(format!("The form could not be read: {e}")))?;
    let raw = form.widget_json.ok_or_else(|| bad("widgetJSON is required."))?;
    let widget: WidgetJson =
        serde_json::from_str(&raw).map_err(|e| bad(format!("widgetJSON could not be decoded: {e}")))?;
    if widget.id.starts_with("block-") {
        return Err(bad("id is the block id without the block- prefix."));
    }
    if widget.id.len() != 24 || !widget.id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        return Err(bad("id must be 24 lowercase letters and digits."));
    }
    if widget.kind != "summary" {
        return Err(bad(format!("'{}' is not a widget type that can be rendered (summary).", widget.kind)));
    }
    // The page's block data names its design's `layoutVariant` too, derived from the design.
    let value = veranda_actors::site::blocks::without_derived_fields(widget.value);
    let mut summary: SummaryBlock =
        serde_json::from_value(value).map_err(|e| bad(format!("value is not a summary block: {e}")))?;
    if let Some(collection_id) = form.collection_id.as_deref().filter(|c| !c.is_empty()) {
        let collection = site
            .collections
            .iter()
            .find(|c| c.id == collection_id)
            .ok_or_else(|| Refusal { status: 404, message: format!("No collection has the id '{collection_id}'.") })?;
        if collection.kind != CollectionKind::Events {
            return Err(bad("collectionId must name an events collection."));
        }
        summary.collection = collection.name.clone();
    }
    match site.collection(&summary.collection) {
        Some(c) if c.access == Access::Public => {}
        _ => {
            let message = format!("No public collection is named '{}'.", summary.collection);
            return Err(Refusal { status: 404, message });
        }
    }
    let today = time::OffsetDateTime::now_utc().date();
    let ctx = BlockCtx {
        site,
        page_url: format!("{}/", site.settings.website.base_url.trim_end_matches('/')),
        page_path: "/".to_string(),
        today: format!("{:04}-{:02}-{:02}", today.year(), u8::from(today.month()), today.day()),
        linked_slide: None,
    };
    let block = Block { id: widget.id, data: BlockData::Summary(summary) };
    Ok(block_content(&ctx, &block).into_string())
}

/// Answers `{html}`, or `{error}` with a 4xx.
async fn render(state: web::Data<AppState>, body: web::Bytes) -> HttpResponse {
    match rendering(&state.services.site.current(), &body) {
        Ok(html) => no_store(HttpResponse::Ok()).json(serde_json::json!({ "html": html })),
        Err(refusal) => {
            let status = actix_web::http::StatusCode::from_u16(refusal.status)
                .unwrap_or(actix_web::http::StatusCode::BAD_REQUEST);
            HttpResponse::build(status).json(serde_json::json!({ "error": refusal.message }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> Site {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/sites/demo");
        Site::load(&dir).unwrap_or_else(|p| panic!("{p}"))
    }

    fn body(value: serde_json::Value) -> Vec<u8> {
        let json =
            serde_json::json!({ "type": "summary", "id": "a1b2c3d4e5f6a7b8c9d0e1f2", "value": value }).to_string();
        serde_urlencoded::to_string([("widgetJSON", json)]).expect("a form").into_bytes()
    }

    #[test]
    fn the_answer_is_escaped_server_markup() {
        let site = demo();
        let hostile = r#"<img src=x onerror="alert(1)"><script>alert(2)</script>"#;
        let html = rendering(&site, &body(serde_json::json!({ "collection": "blog", "headerText": hostile })))
            .expect("rendered");
        assert!(html.contains("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script") && !html.contains("<img src=x"), "{html}");
    }

    #[test]
    fn undecodable_widget_json_is_a_400() {
        let site = demo();
        let refusal = rendering(&site, b"widgetJSON=%7Bnot%20json").expect_err("refused");
        assert_eq!(refusal.status, 400);
        assert!(refusal.message.starts_with("widgetJSON could not be decoded"), "{}", refusal.message);
    }
}
