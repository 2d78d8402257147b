//! Who may watch a stream or make an edit, and whether a websocket's `Origin` is the
//! site's own.
//!
//! Spec 000 §6 gives edit events to accounts with admin permission; 001 §3 names the
//! config (1) and admin (2) permissions without mapping roles to them. We map: admin
//! permission is the owner or the admin role; config permission is the owner or any
//! contributor role except the read-only viewer and scheduling-viewer roles. Edits are
//! made by the owner, admins and editors.

use actix_web::http::header;
use actix_web::HttpRequest;
use veranda_actors::accounts::SessionRecord;
use veranda_actors::domain::enums::ContributorRole;
use veranda_actors::site::Site;
use veranda_actors::streams::StreamName;

/// Whether `session` has admin permission.
pub fn has_admin_permission(session: &SessionRecord) -> bool {
    session.owner || session.roles.contains(&ContributorRole::Admin)
}

/// Whether `session` has config permission.
pub fn has_config_permission(session: &SessionRecord) -> bool {
    session.owner
        || session.roles.iter().any(|r| !matches!(r, ContributorRole::Viewer | ContributorRole::SchedulingViewer))
}

/// Whether `session` may watch `stream`: edits need admin permission, errors config permission.
pub fn may_watch(session: &SessionRecord, stream: StreamName) -> bool {
    match stream {
        StreamName::Edits => has_admin_permission(session),
        StreamName::Errors => has_config_permission(session),
    }
}

/// Whether `session` may edit the site: the owner, admins and editors.
pub fn may_edit(session: &SessionRecord) -> bool {
    session.owner || session.roles.iter().any(|r| matches!(r, ContributorRole::Admin | ContributorRole::Editor))
}

/// Whether the request's `Origin` is one of the site's own: its public base URL, its
/// configuration domain, or the very host the request was sent to. A missing `Origin` fails.
pub fn origin_allowed(req: &HttpRequest, site: &Site) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok()).and_then(normalise) else {
        return false;
    };
    let website = &site.settings.website;
    let scheme = crate::security::proxy::ClientInfo::of(req).scheme;
    let own_host = req.headers().get(header::HOST).and_then(|v| v.to_str().ok()).map(|h| format!("{scheme}://{h}"));
    let app_domain = (!website.app_domain.is_empty()).then(|| format!("https://{}", website.app_domain));
    [Some(website.base_url.clone()), app_domain, own_host]
        .into_iter()
        .flatten()
        .filter_map(|o| normalise(&o))
        .any(|o| o == origin)
}

/// `scheme://host[:port]` in lowercase, without a default port or any path; `None` when
/// `url` is not an http(s) URL.
fn normalise(url: &str) -> Option<String> {
    let (scheme, rest) = url.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("").to_ascii_lowercase();
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let authority = match scheme.as_str() {
        "http" => authority.strip_suffix(":80").map(str::to_string).unwrap_or(authority),
        "https" => authority.strip_suffix(":443").map(str::to_string).unwrap_or(authority),
        _ => return None,
    };
    Some(format!("{scheme}://{authority}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(owner: bool, roles: &[ContributorRole]) -> SessionRecord {
        SessionRecord { account_id: "a".into(), owner, roles: roles.to_vec(), member: false, expires_at: i64::MAX }
    }

    #[test]
    fn edits_need_admin_permission_and_errors_config_permission() {
        let admin = session(false, &[ContributorRole::Admin]);
        let editor = session(false, &[ContributorRole::Editor]);
        let viewer = session(false, &[ContributorRole::Viewer]);
        let member = SessionRecord { member: true, ..session(false, &[]) };
        assert!(may_watch(&session(true, &[]), StreamName::Edits));
        assert!(may_watch(&admin, StreamName::Edits) && may_watch(&admin, StreamName::Errors));
        assert!(!may_watch(&editor, StreamName::Edits) && may_watch(&editor, StreamName::Errors));
        assert!(!may_watch(&viewer, StreamName::Errors) && !may_watch(&member, StreamName::Errors));
        assert!(may_edit(&editor) && !may_edit(&viewer) && !may_edit(&member));
    }

    #[test]
    fn origins_are_compared_without_paths_case_or_default_ports() {
        assert_eq!(normalise("HTTPS://Example.com:443/config/"), Some("https://example.com".into()));
        assert_eq!(normalise("http://127.0.0.1:8080"), Some("http://127.0.0.1:8080".into()));
        assert_eq!(normalise("null"), None);
        assert_eq!(normalise("ftp://example.com"), None);
        assert_eq!(normalise("https://evil@example.com"), None);
    }
}
