//! Item edits: visibility, position (within or across collections), blog thumbnail.

use actix_web::{HttpRequest, HttpResponse};
use serde::Deserialize;
use serde_json::json;
use veranda_actors::domain::enums::PublicationState;
use veranda_actors::site::{CollectionKind, Site};

use veranda_actors::streams::EditKind;

use super::{find_collection, find_item, item_path, ContentEdit, MoveBody};
use crate::edge::no_store;
use crate::routes::streams::error::StreamError;

/// The body of an item visibility change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VisibilityBody {
    /// A publication state name.
    state: String,
}

/// `PUT /api/content/items/{itemId}/visibility`.
pub async fn item_visibility(edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let body: VisibilityBody = edit.json()?;
    let new_state =
        PublicationState::from_name(&body.state).filter(|s| *s != PublicationState::Deleted).ok_or_else(|| {
            StreamError::BadRequest(
                "state must be one of published, scheduled, needs-review, draft, private.".to_string(),
            )
        })?;
    let item_id = &edit.id;
    let kind = if new_state == PublicationState::Published { EditKind::ShowItem } else { EditKind::HideItem };
    edit.apply(kind, |overlay, site| {
        let (collection, at) = find_item(site, item_id)?;
        overlay.item_states.insert(item_id.clone(), new_state);
        Ok(((), vec![collection.url.clone(), item_path(&collection.url, &collection.items[at].url_id)]))
    })
    .await?;
    Ok(no_store(HttpResponse::Ok()).json(json!({ "id": item_id, "state": new_state.name() })))
}

/// `PUT /api/content/items/{itemId}/position`: moves an item within its collection or
/// into another collection of the same kind.
pub async fn move_item(edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let body: MoveBody = edit.json()?;
    let item_id = &edit.id;
    let (target_id, position) = edit
        .apply(EditKind::MoveItem, |overlay, site| {
            let (source, at) = find_item(site, item_id)?;
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
            Ok(((target.id.clone(), position), paths))
        })
        .await?;
    Ok(no_store(HttpResponse::Ok()).json(json!({ "id": item_id, "collectionId": target_id, "position": position })))
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
pub async fn blog_thumbnail(req: HttpRequest, edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let remove = req.method() == actix_web::http::Method::DELETE;
    let image = if remove { None } else { Some(edit.json::<ThumbnailBody>()?.image) };
    let item_id = &edit.id;
    let kind = if remove { EditKind::RemoveBlogThumbnail } else { EditKind::ChangeBlogThumbnail };
    edit.apply(kind, |overlay, site| {
        let (collection, at) = find_item(site, item_id)?;
        if collection.kind != CollectionKind::Blog {
            return Err(StreamError::Conflict("Only blog posts have a thumbnail.".to_string()));
        }
        if let Some(problem) = image.as_deref().and_then(|name| image_problem(site, name)) {
            return Err(StreamError::BadRequest(problem));
        }
        overlay.thumbnails.insert(item_id.clone(), image.clone());
        Ok(((), vec![collection.url.clone(), item_path(&collection.url, &collection.items[at].url_id)]))
    })
    .await?;
    Ok(no_store(HttpResponse::Ok()).json(json!({ "id": item_id, "image": image })))
}
