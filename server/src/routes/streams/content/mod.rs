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
//!
//! [`items`]: item visibility, moves and blog thumbnails; [`collections`]: collection
//! settings and moves; [`pages`]: page settings and block content.

mod collections;
mod items;
mod pages;

pub use collections::{collection_settings, move_collection};
pub use items::{blog_thumbnail, item_visibility, move_item};
pub use pages::{block_content, page_settings};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::Deserialize;
use veranda_actors::site::{sanitize, Site};
use veranda_actors::streams::EditKind;

use super::editor::EditRequest;
use super::error::StreamError;
use crate::services::site::ContentOverlay;

/// Largest edit body, in bytes.
pub const MAX_EDIT_BODY: usize = 64 * 1024;
/// Longest title, in characters.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 2000;
/// Longest text-block rich text, in bytes.
pub const MAX_BLOCK_HTML_BYTES: usize = 60 * 1024;

/// A content edit ([`EditRequest`]) of the object named by the route's one path segment,
/// its body at most [`MAX_EDIT_BODY`] bytes.
pub struct ContentEdit {
    /// The edit.
    edit: EditRequest,
    /// The edited object's id.
    id: String,
}

impl ContentEdit {
    /// The body as JSON `T`, or a 400 saying why not.
    fn json<T: serde::de::DeserializeOwned>(&self) -> Result<T, StreamError> {
        self.edit.json()
    }

    /// Applies `change` to the site's content overlay (on disk before it returns; applied
    /// again to the stored overlay when another instance stored one meanwhile), then
    /// publishes the edit's event of `kind` on the edited object, listing the changed pages'
    /// paths `change` returns beside its answer.
    async fn apply<T>(
        &self,
        kind: EditKind,
        change: impl FnMut(&mut ContentOverlay, &Site) -> Result<(T, Vec<String>), StreamError>,
    ) -> Result<T, StreamError> {
        let (answer, paths) = self.edit.state.services.site.edit(change).await?;
        self.edit.publish(kind, &self.id, paths).await?;
        Ok(answer)
    }
}

impl FromRequest for ContentEdit {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<ContentEdit, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(EditRequest, web::Path<String>)>::from_request(req, payload);
        Box::pin(async move {
            let (edit, id) = parts.await?;
            if edit.body.len() > MAX_EDIT_BODY {
                return Err(StreamError::TooLarge(MAX_EDIT_BODY).into());
            }
            Ok(ContentEdit { edit, id: id.into_inner() })
        })
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

/// The body of a collection or page settings change.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsBody {
    /// The new title.
    title: Option<String>,
    /// The new description (plain text).
    description: Option<String>,
}

impl SettingsBody {
    /// The checked settings body of `edit`.
    fn of(edit: &ContentEdit) -> Result<SettingsBody, StreamError> {
        let body: SettingsBody = edit.json()?;
        check_texts(&body.title, &body.description)?;
        Ok(body)
    }

    /// Sets the title and description the body sends (the description as plain text),
    /// keeping those it does not.
    fn apply_to(&self, title: &mut Option<String>, description: &mut Option<String>) {
        if let Some(new) = &self.title {
            *title = Some(new.clone());
        }
        if let Some(new) = &self.description {
            *description = Some(sanitize::plain_text(new));
        }
    }
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
