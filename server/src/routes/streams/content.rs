//! The content edit APIs (owner, admins, editors; crumb-checked; bodies at most 64 KB;
//! on disk before the 2xx). Each changes what visitors see from the next request on and
//! publishes its editor event (spec 001 §7) on the edits stream, listing the changed
//! pages' paths in `paths`:
//!
//! | route | method | body | event (`action`) |
//! |---|---|---|---|
//! | `/api/content/items/{itemId}/visibility` | PUT | `{state}`: `published`, `draft`, `private`, … | `UserChangesItemVisibility` (`show` / `hide`) |
//! | `/api/content/items/{itemId}/position` | PUT | `{position, collectionId?}` | `UserMovesCollectionItem` (`move`) |
//! | `/api/content/items/{itemId}/thumbnail` | PUT | `{image}`: a file in `images/` | `UserChangesBlogThumbnail` (`save`) |
//! | `/api/content/items/{itemId}/thumbnail` | DELETE | none | `UserRemovesBlogThumbnail` (`remove`) |
//! | `/api/content/collections/{collectionId}/settings` | PUT | `{title?, description?}` | `UserSavesCollectionSettings` (`save`) |
//! | `/api/content/collections/{collectionId}/position` | PUT | `{position}` | `UserMovesCollection` (`move`) |
//! | `/api/content/pages/{pageId}/settings` | PUT | `{title?, description?}` | `UserSavesPageSettings` (`save`) |
//! | `/api/content/blocks/{blockId}` | PUT | `{html}` (text blocks; sanitised) | `UserSavesBlockContent` (`save`) |
//!
//! Positions count from 0 and are clamped to the list. Every answer is the edited
//! object's new values. Unknown ids get 404; an item moved to a collection of another
//! kind, or where its url is taken, gets 409.

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use veranda_actors::accounts::SessionRecord;
use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::{sanitize, BlockData, CollectionKind, Site};
use veranda_actors::streams::EditEvent;

use super::content_edits::{CollectionSettings, PageSettings};
use super::edits::{editor, no_store, parse, publish};
use super::error::StreamError;
use crate::security::session::CurrentSession;
use crate::state::AppState;

/// Largest edit body, in bytes.
pub const MAX_EDIT_BODY: usize = 64 * 1024;
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 2000;
/// Longest text-block rich text, in bytes.
pub const MAX_BLOCK_HTML_BYTES: usize = 60 * 1024;

/// Crumb, account and body size checks shared by every content edit.
fn admit(req: &HttpRequest, state: &AppState, session: CurrentSession, body: &[u8]) -> Result<SessionRecord, Refusal> {
    if state.crumb_key.check(req).is_err() {
        return Err(Refusal::Crumb);
    }
    let session = editor(session)?;
    if body.len() > MAX_EDIT_BODY {
        return Err(StreamError::TooLarge(MAX_EDIT_BODY).into());
    }
    Ok(session)
}

/// A refused edit: the crumb refusal of every state change, or a [`StreamError`].
pub enum Refusal {
    /// The crumb is missing or wrong.
    Crumb,
    /// Any other refusal.
    Error(StreamError),
}

impl From<StreamError> for Refusal {
    fn from(error: StreamError) -> Refusal {
        Refusal::Error(error)
    }
}

/// Turns a handler's result into the answer.
fn answer(state: &AppState, result: Result<HttpResponse, Refusal>) -> Result<HttpResponse, StreamError> {
    match result {
        Ok(response) => Ok(response),
        Err(Refusal::Crumb) => Ok(state.crumb_key.refusal()),
        Err(Refusal::Error(error)) => Err(error),
    }
}

/// An editor event on the site's editors.
fn event(session: &SessionRecord, name: &str, action: &str, target: (&str, &str), place: (&str, &str)) -> EditEvent {
    EditEvent {
        name: name.to_string(),
        actor: session.account_id.clone(),
        action: action.to_string(),
        object_type: target.0.to_string(),
        object_id: target.1.to_string(),
        product_page: place.0.to_string(),
        product_section: place.1.to_string(),
        paths: Vec::new(),
    }
}

/// The path of an item page.
fn item_path(collection_url: &str, url_id: &str) -> String {
    format!("{}/{url_id}", collection_url.trim_end_matches('/'))
}

/// The collection holding item `item_id`, and the item's index in it.
fn find_item<'a>(site: &'a Site, item_id: &str) -> Result<(&'a veranda_actors::site::Collection, usize), StreamError> {
    site.collections
        .iter()
        .find_map(|c| c.items.iter().position(|i| i.id == item_id).map(|at| (c, at)))
        .ok_or_else(|| StreamError::NotFound(format!("No item has the id '{item_id}'.")))
}

/// The collection with id `id`.
fn find_collection<'a>(site: &'a Site, id: &str) -> Result<&'a veranda_actors::site::Collection, StreamError> {
    site.collections
        .iter()
        .find(|c| c.id == id)
        .ok_or_else(|| StreamError::NotFound(format!("No collection has the id '{id}'.")))
}

/// Checks an optional title and description.
fn check_texts(title: &Option<String>, description: &Option<String>) -> Result<(), StreamError> {
    if let Some(title) = title {
        if title.trim().is_empty() || title.chars().count() > MAX_TITLE_CHARS {
            return Err(StreamError::BadRequest(format!("title must have 1 to {MAX_TITLE_CHARS} characters.")));
        }
    }
    if description.as_ref().is_some_and(|d| d.chars().count() > MAX_DESCRIPTION_CHARS) {
        return Err(StreamError::BadRequest(format!("description is limited to {MAX_DESCRIPTION_CHARS} characters.")));
    }
    if title.is_none() && description.is_none() {
        return Err(StreamError::BadRequest("Send title, description or both.".to_string()));
    }
    Ok(())
}

/// The body of an item visibility change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VisibilityBody {
    /// A publication state name.
    state: String,
}

/// `PUT /api/content/items/{itemId}/visibility`.
pub async fn item_visibility(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let body: VisibilityBody = parse(&body)?;
        let new_state =
            PublicationState::from_name(&body.state).filter(|s| *s != PublicationState::Deleted).ok_or_else(|| {
                StreamError::BadRequest(
                    "state must be one of published, scheduled, needs-review, draft, private.".to_string(),
                )
            })?;
        let item_id = path.into_inner();
        let paths = state
            .streams
            .content
            .edit(|overlay, site| {
                let (collection, at) = find_item(site, &item_id)?;
                overlay.item_states.insert(item_id.clone(), new_state.name().to_string());
                Ok::<_, StreamError>(vec![
                    collection.url.clone(),
                    item_path(&collection.url, &collection.items[at].url_id),
                ])
            })
            .await?;
        let action = if new_state == PublicationState::Published { "show" } else { "hide" };
        let mut event = event(
            &session,
            "UserChangesItemVisibility",
            action,
            ("item", &item_id),
            ("collection-editor", "item-catalog"),
        );
        event.paths = paths;
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": item_id, "state": new_state.name() })))
    }
    .await;
    answer(&state, result)
}

/// The body of a move.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct MoveBody {
    /// The new position, from 0.
    position: usize,
    /// The collection to move an item into (its own when absent).
    collection_id: Option<String>,
}

/// `PUT /api/content/items/{itemId}/position`: moves an item within its collection or
/// into another collection of the same kind.
pub async fn move_item(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let body: MoveBody = parse(&body)?;
        let item_id = path.into_inner();
        let (target_id, position, paths) = state
            .streams
            .content
            .edit(|overlay, site| {
                let (source, at) = find_item(site, &item_id)?;
                let target = match &body.collection_id {
                    Some(id) => find_collection(site, id)?,
                    None => source,
                };
                let url_id = &source.items[at].url_id;
                if target.id != source.id {
                    if target.kind != source.kind {
                        return Err(StreamError::Conflict(
                            "An item can only move into a collection of the same kind.".to_string(),
                        ));
                    }
                    if target.items.iter().any(|i| &i.url_id == url_id) {
                        return Err(StreamError::Conflict(format!(
                            "The collection already has an item at '{}'.",
                            item_path(&target.url, url_id)
                        )));
                    }
                }
                let mut source_ids: Vec<String> = source.items.iter().map(|i| i.id.clone()).collect();
                source_ids.remove(at);
                let mut target_ids: Vec<String> = if target.id == source.id {
                    source_ids.clone()
                } else {
                    target.items.iter().map(|i| i.id.clone()).collect()
                };
                let position = body.position.min(target_ids.len());
                target_ids.insert(position, item_id.clone());
                if target.id != source.id {
                    overlay.item_layout.insert(source.id.clone(), source_ids);
                }
                overlay.item_layout.insert(target.id.clone(), target_ids);
                let mut paths = vec![source.url.clone(), item_path(&source.url, url_id)];
                if target.id != source.id {
                    paths.extend([target.url.clone(), item_path(&target.url, url_id)]);
                }
                Ok((target.id.clone(), position, paths))
            })
            .await?;
        let mut event = event(
            &session,
            "UserMovesCollectionItem",
            "move",
            ("item", &item_id),
            ("collection-editor", "item-catalog"),
        );
        event.paths = paths;
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": item_id, "collectionId": target_id, "position": position })))
    }
    .await;
    answer(&state, result)
}

/// The body of a thumbnail change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThumbnailBody {
    /// A file name in the site's `images/` folder.
    image: String,
}

/// Why `name` is not a file of the site's `images/` folder, if it is not.
fn image_problem(site: &Site, name: &str) -> Option<String> {
    let plain = !name.is_empty()
        && name.len() <= 255
        && std::path::Path::new(name).components().all(|c| matches!(c, std::path::Component::Normal(_)));
    if !plain {
        return Some(format!("'{name}' must be a file name inside images/."));
    }
    (!site.dir.join("images").join(name).is_file()).then(|| format!("images/{name} does not exist."))
}

/// `PUT` (set) and `DELETE` (remove) `/api/content/items/{itemId}/thumbnail` of a blog post.
pub async fn blog_thumbnail(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let remove = req.method() == actix_web::http::Method::DELETE;
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let image = if remove { None } else { Some(parse::<ThumbnailBody>(&body)?.image) };
        let item_id = path.into_inner();
        let paths = state
            .streams
            .content
            .edit(|overlay, site| {
                let (collection, at) = find_item(site, &item_id)?;
                if collection.kind != CollectionKind::Blog {
                    return Err(StreamError::Conflict("Only blog posts have a thumbnail.".to_string()));
                }
                if let Some(problem) = image.as_deref().and_then(|name| image_problem(site, name)) {
                    return Err(StreamError::BadRequest(problem));
                }
                overlay.thumbnails.insert(item_id.clone(), image.clone());
                Ok(vec![collection.url.clone(), item_path(&collection.url, &collection.items[at].url_id)])
            })
            .await?;
        let (name, action) =
            if remove { ("UserRemovesBlogThumbnail", "remove") } else { ("UserChangesBlogThumbnail", "save") };
        let mut event = event(&session, name, action, ("item", &item_id), ("collection-editor", "settings-modal"));
        event.paths = paths;
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": item_id, "image": image })))
    }
    .await;
    answer(&state, result)
}

/// `PUT /api/content/collections/{collectionId}/settings`.
pub async fn collection_settings(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let body: SettingsBody = parse(&body)?;
        check_texts(&body.title, &body.description)?;
        let id = path.into_inner();
        let (settings, paths) = state
            .streams
            .content
            .edit(|overlay, site| {
                let collection = find_collection(site, &id)?;
                let settings = overlay.collections.entry(id.clone()).or_insert_with(CollectionSettings::default);
                settings.title = body.title.clone().or(settings.title.take());
                settings.description =
                    body.description.as_deref().map(sanitize::plain_text).or(settings.description.take());
                let mut paths = vec![collection.url.clone()];
                paths.extend(collection.items.iter().map(|i| item_path(&collection.url, &i.url_id)));
                Ok::<_, StreamError>((settings.clone(), paths))
            })
            .await?;
        let mut event = event(
            &session,
            "UserSavesCollectionSettings",
            "save",
            ("collection", &id),
            ("collection-editor", "settings-modal"),
        );
        event.paths = paths;
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": id, "title": settings.title, "description": settings.description })))
    }
    .await;
    answer(&state, result)
}

/// `PUT /api/content/collections/{collectionId}/position`: moves a collection in the
/// site's list of collections.
pub async fn move_collection(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let body: MoveBody = parse(&body)?;
        if body.collection_id.is_some() {
            return Err(StreamError::BadRequest("A collection move takes only position.".to_string()).into());
        }
        let id = path.into_inner();
        let (position, order) = state
            .streams
            .content
            .edit(|overlay, site| {
                find_collection(site, &id)?;
                let mut order: Vec<String> =
                    site.collections.iter().map(|c| c.id.clone()).filter(|c| c != &id).collect();
                let position = body.position.min(order.len());
                order.insert(position, id.clone());
                overlay.collection_order = order.clone();
                Ok::<_, StreamError>((position, order))
            })
            .await?;
        let event = event(&session, "UserMovesCollection", "move", ("collection", &id), ("collection-editor", "panel"));
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": id, "position": position, "order": order })))
    }
    .await;
    answer(&state, result)
}

/// The body of a collection or page settings change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsBody {
    /// The new title.
    title: Option<String>,
    /// The new description (plain text).
    description: Option<String>,
}

/// `PUT /api/content/pages/{pageId}/settings`.
pub async fn page_settings(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let body: SettingsBody = parse(&body)?;
        check_texts(&body.title, &body.description)?;
        let id = path.into_inner();
        let (settings, url) = state
            .streams
            .content
            .edit(|overlay, site| {
                let page = site
                    .pages
                    .iter()
                    .find(|p| p.id == id)
                    .ok_or_else(|| StreamError::NotFound(format!("No page has the id '{id}'.")))?;
                let settings = overlay.pages.entry(id.clone()).or_insert_with(PageSettings::default);
                settings.title = body.title.clone().or(settings.title.take());
                settings.description =
                    body.description.as_deref().map(sanitize::plain_text).or(settings.description.take());
                Ok::<_, StreamError>((settings.clone(), page.url.clone()))
            })
            .await?;
        let mut event =
            event(&session, "UserSavesPageSettings", "save", ("page", &id), ("page-editor", "settings-modal"));
        event.paths = vec![url];
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": id, "title": settings.title, "description": settings.description })))
    }
    .await;
    answer(&state, result)
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
pub async fn block_content(
    req: HttpRequest,
    state: web::Data<AppState>,
    session: CurrentSession,
    path: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, StreamError> {
    let result: Result<HttpResponse, Refusal> = async {
        let session = admit(&req, &state, session, &body)?;
        let body: BlockBody = parse(&body)?;
        if body.html.len() > MAX_BLOCK_HTML_BYTES {
            return Err(StreamError::BadRequest(format!("html is limited to {MAX_BLOCK_HTML_BYTES} bytes.")).into());
        }
        let html = sanitize::rich_text(&body.html);
        let id = path.into_inner();
        let url = state
            .streams
            .content
            .edit(|overlay, site| {
                let (url, is_text) = find_block(site, &id)
                    .ok_or_else(|| StreamError::NotFound(format!("No block has the id '{id}'.")))?;
                if !is_text {
                    return Err(StreamError::Conflict("Only text blocks can be edited here.".to_string()));
                }
                overlay.text_blocks.insert(id.clone(), html.clone());
                Ok(url)
            })
            .await?;
        let mut event =
            event(&session, "UserSavesBlockContent", "save", ("block", &id), ("page-editor", "section-editor"));
        event.paths = vec![url];
        publish(&state, event).await?;
        Ok(no_store().json(json!({ "id": id, "html": html })))
    }
    .await;
    answer(&state, result)
}
