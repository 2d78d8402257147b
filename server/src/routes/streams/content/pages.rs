//! Page edits: settings (title, description) and a text block's content.

use actix_web::HttpResponse;
use serde::Deserialize;
use serde_json::json;
use veranda_actors::site::{sanitize, BlockData, Site};

use veranda_actors::streams::EditKind;

use super::{item_path, ContentEdit, SettingsBody, MAX_BLOCK_HTML_BYTES};
use crate::edge::no_store;
use crate::routes::streams::error::StreamError;
use crate::services::site::PageSettings;

/// `PUT /api/content/pages/{pageId}/settings`.
pub async fn page_settings(edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let body = SettingsBody::of(&edit)?;
    let id = &edit.id;
    let settings = edit
        .apply(EditKind::PageSettings, |overlay, site| {
            let page = site
                .pages
                .iter()
                .find(|p| &p.id == id)
                .ok_or_else(|| StreamError::NotFound(format!("No page has the id '{id}'.")))?;
            let settings = overlay.pages.entry(id.clone()).or_insert_with(PageSettings::default);
            body.apply_to(&mut settings.title, &mut settings.description);
            Ok((settings.clone(), vec![page.url.clone()]))
        })
        .await?;
    Ok(no_store(HttpResponse::Ok())
        .json(json!({ "id": id, "title": settings.title, "description": settings.description })))
}

/// The body of a block content change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockBody {
    /// The text block's rich text.
    html: String,
}

/// The path of the page or item showing block `id`, and whether it is a text block.
fn find_block(site: &Site, id: &str) -> Option<(String, bool)> {
    let is_text = |b: &veranda_actors::site::Block| matches!(b.data, BlockData::Text(_));
    for page in &site.pages {
        if let Some(block) = page.blocks.iter().find(|b| b.id == id) {
            return Some((page.url.clone(), is_text(block)));
        }
    }
    for collection in &site.collections {
        for item in &collection.items {
            if let Some(block) = item.blocks.iter().find(|b| b.id == id) {
                return Some((item_path(&collection.url, &item.url_id), is_text(block)));
            }
        }
    }
    None
}

/// `PUT /api/content/blocks/{blockId}`: replaces a text block's rich text (sanitised).
pub async fn block_content(edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let body: BlockBody = edit.json()?;
    if body.html.len() > MAX_BLOCK_HTML_BYTES {
        return Err(StreamError::BadRequest(format!("html is limited to {MAX_BLOCK_HTML_BYTES} bytes.")));
    }
    let html = sanitize::rich_text(&body.html);
    let id = &edit.id;
    edit.apply(EditKind::BlockContent, |overlay, site| {
        let (url, is_text) =
            find_block(site, id).ok_or_else(|| StreamError::NotFound(format!("No block has the id '{id}'.")))?;
        if !is_text {
            return Err(StreamError::Conflict("Only text blocks can be edited here.".to_string()));
        }
        overlay.text_blocks.insert(id.clone(), html.clone());
        Ok(((), vec![url]))
    })
    .await?;
    Ok(no_store(HttpResponse::Ok()).json(json!({ "id": id, "html": html })))
}
