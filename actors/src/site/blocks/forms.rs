//! Form blocks: forms and their fields, newsletter sign-up, donation button.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::default_success;

/// A form field kind (spec 000 §3 "Form builder field kinds").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum FieldKind {
    Text,
    Textarea,
    Email,
    Number,
    Website,
    Currency,
    Password,
    Twitter,
    Date,
    Time,
    Name,
    Address,
    Phone,
    Section,
    Radio,
    Checkbox,
    Select,
    Likert,
    Hidden,
}

/// One field of a form.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormField {
    /// Field id, unique in the form; the key of the submitted `form` map.
    pub id: String,
    /// Field kind.
    #[serde(rename = "type")]
    pub kind: FieldKind,
    /// Label shown to visitors.
    #[serde(default)]
    pub title: String,
    /// Help text under the label.
    #[serde(default)]
    pub description: String,
    /// Placeholder text.
    #[serde(default)]
    pub placeholder: String,
    /// Whether a value is required.
    #[serde(default)]
    pub required: bool,
    /// Options of radio, checkbox, select; questions of likert.
    #[serde(default)]
    pub options: Vec<String>,
    /// Textarea maximum length (0: no limit).
    #[serde(default)]
    #[ts(optional)]
    pub max_length: Option<i64>,
    /// Currency symbol of a currency field.
    #[serde(default)]
    #[ts(optional)]
    pub currency_symbol: Option<String>,
    /// Phone fields: show the country code part.
    #[serde(default)]
    pub show_country_code: bool,
    /// Section: draw an underline.
    #[serde(default)]
    pub underline: bool,
    /// Hidden fields: the query parameter name.
    #[serde(default)]
    #[ts(optional)]
    pub key: Option<String>,
    /// Hidden fields: the default value.
    #[serde(default)]
    #[ts(optional)]
    pub value: Option<String>,
}

/// A form (spec 000 §3, §4).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FormBlock {
    /// Form id, unique in the site (`formId` of the save call).
    pub form_id: String,
    /// Heading above the fields.
    #[serde(default)]
    pub title: String,
    /// The fields, in order.
    pub fields: Vec<FormField>,
    /// Submit button text.
    #[serde(default = "default_submit")]
    pub submit_button_text: String,
    /// Text shown after a successful submission.
    #[serde(default = "default_success")]
    pub success_message: String,
    /// Optional HTML shown after the success text (sanitised).
    #[serde(default)]
    pub post_submit_html: String,
    /// Same-site path visitors are sent to after success, instead of the message.
    #[serde(default)]
    #[ts(optional)]
    pub success_redirect: Option<String>,
    /// Whether the form asks for a captcha.
    #[serde(default)]
    pub captcha: bool,
    /// Disclaimer text shown above the submit button.
    #[serde(default)]
    pub disclaimer: String,
    /// Whether the browser checks the whole form before sending it (true by default); false
    /// sends the entries as they are and the server's checks answer (000 §5: "The check
    /// can be switched off by the caller").
    #[serde(default = "checked")]
    pub validate: bool,
}

fn checked() -> bool {
    true
}

fn default_submit() -> String {
    "Submit".into()
}

/// A newsletter sign-up (a one-field form that adds to a mailing list).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewsletterBlock {
    /// Form id (`formId` of the save call).
    pub form_id: String,
    /// Heading.
    pub title: String,
    /// Text under the heading.
    #[serde(default)]
    pub description: String,
    /// Name of the mailing list addresses are added to.
    pub mailing_list: String,
    /// Submit button text.
    #[serde(default = "default_signup")]
    pub submit_button_text: String,
    /// Text shown after signing up.
    #[serde(default = "default_success")]
    pub success_message: String,
    /// Whether the form asks for a captcha.
    #[serde(default)]
    pub captcha: bool,
}

fn default_signup() -> String {
    "Sign Up".into()
}

/// A donation button leading to `/checkout/donate?donatePageId=…`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DonationButtonBlock {
    /// The donation page id.
    pub donate_page_id: String,
    /// Button text.
    #[serde(default = "default_donate")]
    pub button_text: String,
    /// Suggested amounts, in cents.
    #[serde(default)]
    pub suggested_amounts_cents: Vec<u64>,
}

fn default_donate() -> String {
    "Donate".into()
}
