//! Form and newsletter blocks: real `<form>` elements that post to the save call, with a
//! top error node the island fills and a label for every input (fields in [`super::fields`]).

use maud::{html, Markup};
use veranda_actors::site::blocks::{FormBlock, NewsletterBlock};

use super::fields;

/// Where forms post (spec 000 §7, the save call).
pub const SAVE_FORM_ACTION: &str = "/api/form/SaveFormSubmission";

/// A form with every field, the disclaimer and the submit button.
pub fn form(block_id: &str, d: &FormBlock) -> Markup {
    let prefix = format!("form-{block_id}");
    let title_id = format!("{prefix}-title");
    let has_title = !d.title.trim().is_empty();
    html! {
        form method="post" action=(SAVE_FORM_ACTION) class="form" data-form-id=(d.form_id)
            aria-labelledby=[has_title.then_some(&title_id)] {
            @if has_title { h2 id=(title_id) { (d.title) } }
            div class="form-errors" role="alert" hidden {}
            input type="hidden" name="formId" value=(d.form_id);
            @for field in &d.fields { (fields::field(&prefix, field)) }
            @if !d.disclaimer.trim().is_empty() { p class="disclaimer muted" { (d.disclaimer) } }
            @if d.captcha {
                p class="notice" { "Sending this form includes a spam check that needs JavaScript." }
            }
            p { button type="submit" { (d.submit_button_text) } }
        }
    }
}

/// A one-field sign-up form.
pub fn newsletter(block_id: &str, d: &NewsletterBlock) -> Markup {
    let prefix = format!("newsletter-{block_id}");
    let email_id = format!("{prefix}-email");
    let title_id = format!("{prefix}-title");
    let desc_id = format!("{prefix}-desc");
    let has_desc = !d.description.trim().is_empty();
    html! {
        form method="post" action=(SAVE_FORM_ACTION) class="newsletter" data-form-id=(d.form_id) aria-labelledby=(title_id) {
            h2 id=(title_id) { (d.title) }
            @if has_desc { p id=(desc_id) { (d.description) } }
            div class="form-errors" role="alert" hidden {}
            input type="hidden" name="formId" value=(d.form_id);
            label for=(email_id) { "Email Address " span class="required" { "(required)" } }
            input id=(email_id) type="email" name="email" autocomplete="email" required
                aria-describedby=[has_desc.then_some(&desc_id)];
            @if d.captcha {
                p class="notice" { "Signing up includes a spam check that needs JavaScript." }
            }
            p { button type="submit" { (d.submit_button_text) } }
        }
    }
}
