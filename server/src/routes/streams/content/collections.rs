//! Collection edits: settings (title, description) and position in the site's list.

use actix_web::HttpResponse;
use serde_json::json;

use veranda_actors::streams::EditKind;

use super::{find_collection, item_path, ContentEdit, MoveBody, SettingsBody};
use crate::edge::no_store;
use crate::routes::streams::error::StreamError;
use crate::services::site::CollectionSettings;

/// `PUT /api/content/collections/{collectionId}/settings`.
pub async fn collection_settings(edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let body = SettingsBody::of(&edit)?;
    let id = &edit.id;
    let settings = edit
        .apply(EditKind::CollectionSettings, |overlay, site| {
            let collection = find_collection(site, id)?;
            let settings = overlay.collections.entry(id.clone()).or_insert_with(CollectionSettings::default);
            body.apply_to(&mut settings.title, &mut settings.description);
            let mut paths = vec![collection.url.clone()];
            paths.extend(collection.items.iter().map(|i| item_path(&collection.url, &i.url_id)));
            Ok((settings.clone(), paths))
        })
        .await?;
    Ok(no_store(HttpResponse::Ok())
        .json(json!({ "id": id, "title": settings.title, "description": settings.description })))
}

/// `PUT /api/content/collections/{collectionId}/position`: moves a collection in the
/// site's list of collections.
pub async fn move_collection(edit: ContentEdit) -> Result<HttpResponse, StreamError> {
    let body: MoveBody = edit.json()?;
    if body.collection_id.is_some() {
        return Err(StreamError::BadRequest("A collection move takes only position.".to_string()));
    }
    let id = &edit.id;
    let (position, order) = edit
        .apply(EditKind::MoveCollection, |overlay, site| {
            find_collection(site, id)?;
            let mut order: Vec<String> = site.collections.iter().map(|c| c.id.clone()).filter(|c| c != id).collect();
            let position = body.position.min(order.len());
            order.insert(position, id.clone());
            overlay.collection_order = order.clone();
            Ok(((position, order), Vec::new()))
        })
        .await?;
    Ok(no_store(HttpResponse::Ok()).json(json!({ "id": id, "position": position, "order": order })))
}
