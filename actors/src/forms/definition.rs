//! The forms a site defines, found once in its pages and items: form blocks and
//! newsletter sign-ups (a newsletter is a form with one required email field, `email`).

use std::collections::HashMap;

use crate::site::blocks::{FieldKind, FormBlock, FormField, NewsletterBlock};
use crate::site::{BlockData, Site};

/// The field id of a newsletter's one field (the rendered input's `name`).
pub const NEWSLETTER_EMAIL_FIELD: &str = "email";

/// What happens to a valid submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// Stored as a submission the owner can export.
    Submissions,
    /// The address is added to this mailing list.
    MailingList(String),
}

/// One form a visitor can submit.
#[derive(Debug, Clone)]
pub struct FormDefinition {
    /// The `formId` of the save call.
    pub form_id: String,
    /// The fields, in order (a newsletter has one email field).
    pub fields: Vec<FormField>,
    /// Whether a captcha proof must come with each submission.
    pub captcha: bool,
    /// Where valid submissions go.
    pub destination: Destination,
    /// The success redirect the owner configured, as written (checked when answering).
    pub success_redirect: Option<String>,
    /// The text shown after success.
    pub success_message: String,
    /// HTML shown after success, sanitised when the site was loaded.
    pub post_submit_html: String,
}

impl FormDefinition {
    /// The definition of a form block.
    pub fn of_form(block: &FormBlock) -> FormDefinition {
        FormDefinition {
            form_id: block.form_id.clone(),
            fields: block.fields.clone(),
            captcha: block.captcha,
            destination: Destination::Submissions,
            success_redirect: block.success_redirect.clone(),
            success_message: block.success_message.clone(),
            post_submit_html: crate::site::sanitize::rich_text(&block.post_submit_html),
        }
    }

    /// The definition of a newsletter sign-up.
    pub fn of_newsletter(block: &NewsletterBlock) -> FormDefinition {
        let email = FormField {
            id: NEWSLETTER_EMAIL_FIELD.to_string(),
            kind: FieldKind::Email,
            title: "Email Address".to_string(),
            description: String::new(),
            placeholder: String::new(),
            required: true,
            options: Vec::new(),
            max_length: None,
            currency_symbol: None,
            show_country_code: false,
            underline: false,
            key: None,
            value: None,
        };
        FormDefinition {
            form_id: block.form_id.clone(),
            fields: vec![email],
            captcha: block.captcha,
            destination: Destination::MailingList(block.mailing_list.clone()),
            success_redirect: None,
            success_message: block.success_message.clone(),
            post_submit_html: String::new(),
        }
    }

    /// The field ids whose values are stored (every field but sections), in order.
    pub fn value_field_ids(&self) -> impl Iterator<Item = &str> {
        self.fields.iter().filter(|f| f.kind != FieldKind::Section).map(|f| f.id.as_str())
    }
}

/// Every form of a site, by form id.
#[derive(Debug, Clone, Default)]
pub struct FormIndex {
    /// Definitions by `formId` (unique in a site; the loader refuses duplicates).
    forms: HashMap<String, FormDefinition>,
}

impl FormIndex {
    /// Collects the form and newsletter blocks of every page and item.
    pub fn of_site(site: &Site) -> FormIndex {
        let mut forms = HashMap::new();
        for block in site.blocks() {
            let definition = match &block.data {
                BlockData::Form(form) => FormDefinition::of_form(form),
                BlockData::Newsletter(newsletter) => FormDefinition::of_newsletter(newsletter),
                _ => continue,
            };
            forms.entry(definition.form_id.clone()).or_insert(definition);
        }
        FormIndex { forms }
    }

    /// The form with this id, if the site has one.
    pub fn get(&self, form_id: &str) -> Option<&FormDefinition> {
        self.forms.get(form_id)
    }
}
