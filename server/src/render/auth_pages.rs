//! The two pages that post plain HTML forms and so work without JavaScript: the lock
//! screen of a password page (its unlock form) and the login page (`/account/login`).
//! Both carry the page's crumb in a hidden `crumb` field; a refusal is shown above the
//! form in an alert that the first field points at.

use maud::{html, Markup};

/// What the login page shows.
#[derive(Debug, Clone, Default)]
pub struct LoginView {
    /// The page's crumb, echoed by the form.
    pub crumb: String,
    /// The same-site path to go to after signing in.
    pub return_to: String,
    /// The address typed last time (kept after a refusal).
    pub email: String,
    /// Why the last attempt was refused.
    pub error: Option<&'static str>,
}

/// The lock screen's body: the title, 'This page is locked' and the unlock form,
/// posting to the page itself.
pub fn lock_screen(path: &str, title: &str, crumb: &str, error: Option<&str>) -> Markup {
    html! {
        h1 { (title) }
        p { "This page is locked" }
        (error_alert("unlock-error", error))
        form method="post" action=(path) class="lock-form" {
            input type="hidden" name="crumb" value=(crumb);
            label for="page-password" { "Password" }
            input id="page-password" type="password" name="password" autocomplete="current-password" required
                autofocus[error.is_some()]
                aria-invalid=[error.map(|_| "true")]
                aria-describedby=[error.map(|_| "unlock-error")];
            p { button type="submit" { "Unlock" } }
        }
    }
}

/// The login page's body.
pub fn login(view: &LoginView) -> Markup {
    let error = view.error;
    html! {
        h1 { "Log in" }
        (error_alert("login-error", error))
        form method="post" action="/account/login" class="login-form" {
            input type="hidden" name="crumb" value=(view.crumb);
            input type="hidden" name="redirect" value=(view.return_to);
            p {
                label for="login-email" { "Email" }
                br;
                input id="login-email" type="email" name="email" autocomplete="username" required
                    value=(view.email)
                    autofocus[error.is_some()]
                    aria-invalid=[error.map(|_| "true")]
                    aria-describedby=[error.map(|_| "login-error")];
            }
            p {
                label for="login-password" { "Password" }
                br;
                input id="login-password" type="password" name="password" autocomplete="current-password" required;
            }
            p {
                label { input type="checkbox" name="rememberMe" value="true"; " Remember me" }
            }
            p { button type="submit" { "Log in" } }
        }
    }
}

fn error_alert(id: &str, error: Option<&str>) -> Markup {
    html! {
        @if let Some(message) = error { p id=(id) class="form-errors" role="alert" { (message) } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unlock_form_carries_the_crumb_and_points_at_its_error() {
        let html = lock_screen("/private", "Private", "abc.def", Some("Wrong")).into_string();
        assert!(html.contains(r#"<input type="hidden" name="crumb" value="abc.def">"#), "{html}");
        assert!(html.contains(r#"<p id="unlock-error" class="form-errors" role="alert">Wrong</p>"#), "{html}");
        assert!(html.contains(r#"aria-describedby="unlock-error""#));
        let calm = lock_screen("/private", "Private", "abc.def", None).into_string();
        assert!(!calm.contains("role=\"alert\"") && !calm.contains("aria-invalid"));
    }

    #[test]
    fn the_login_form_escapes_what_it_echoes() {
        let view = LoginView {
            crumb: "c".into(),
            return_to: "/members?a=\"b\"".into(),
            email: "<x@example.com>".into(),
            error: None,
        };
        let html = login(&view).into_string();
        assert!(html.contains(r#"name="redirect" value="/members?a=&quot;b&quot;""#), "{html}");
        assert!(html.contains("value=\"&lt;x@example.com&gt;\""), "{html}");
        assert!(html.contains(r#"<form method="post" action="/account/login" class="login-form">"#));
    }
}
