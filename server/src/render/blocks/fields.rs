//! Form fields by kind. Every input has a `<label for>`; fields of several parts (name,
//! address, phone, date, time) and choices are fieldsets with a legend; descriptions and
//! the island's inline error nodes are linked with `aria-describedby`.

use maud::{html, Markup};
use veranda_actors::site::blocks::{FieldKind, FormField};

/// The likert scale: values -2 to 2 with their labels (spec 000 §3).
pub const LIKERT_SCALE: [(i8, &str); 5] =
    [(-2, "Strongly Disagree"), (-1, "Disagree"), (0, "Neutral"), (1, "Agree"), (2, "Strongly Agree")];

/// One part of a multi-part field: sub-field name, label, autocomplete token, required.
type Part = (&'static str, &'static str, &'static str, bool);

const NAME_PARTS: [Part; 2] = [("First", "First Name", "given-name", true), ("Last", "Last Name", "family-name", true)];
const ADDRESS_PARTS: [Part; 6] = [
    ("Line1", "Address Line 1", "address-line1", true),
    ("Line2", "Address Line 2", "address-line2", false),
    ("City", "City", "address-level2", true),
    ("State", "State / Province", "address-level1", true),
    ("Zip", "Zip / Postal Code", "postal-code", true),
    ("Country", "Country", "country-name", true),
];
const PHONE_PARTS: [Part; 4] = [
    ("Country", "Country Code", "tel-country-code", false),
    ("Areacode", "Area Code", "tel-area-code", true),
    ("Prefix", "Prefix", "tel-local-prefix", true),
    ("Line", "Line", "tel-local-suffix", true),
];
const DATE_PARTS: [Part; 3] =
    [("Month", "Month (MM)", "off", true), ("Day", "Day (DD)", "off", true), ("Year", "Year (YYYY)", "off", true)];
const TIME_PARTS: [Part; 3] =
    [("Hour", "Hour", "off", true), ("Minute", "Minute", "off", true), ("Second", "Second", "off", false)];

/// Ids of one field's element, its description and its error node.
struct Ids {
    /// The input (or fieldset) id.
    input: String,
    /// The description paragraph id.
    desc: String,
    /// The inline error node id.
    error: String,
}

impl Ids {
    fn of(prefix: &str, f: &FormField) -> Ids {
        let input = format!("{prefix}-{}", f.id);
        Ids { desc: format!("{input}-desc"), error: format!("{input}-error"), input }
    }

    /// The `aria-describedby` value: description (when there is one) and error node.
    fn described_by(&self, f: &FormField) -> String {
        if f.description.trim().is_empty() {
            self.error.clone()
        } else {
            format!("{} {}", self.desc, self.error)
        }
    }
}

fn label_text(f: &FormField) -> &str {
    if !f.title.trim().is_empty() {
        &f.title
    } else if !f.placeholder.trim().is_empty() {
        &f.placeholder
    } else {
        &f.id
    }
}

fn required_mark(required: bool) -> Markup {
    html! { @if required { " " span class="required" { "(required)" } } }
}

fn description_and_error(ids: &Ids, f: &FormField) -> Markup {
    html! {
        @if !f.description.trim().is_empty() { p id=(ids.desc) class="field-desc" { (f.description) } }
        p id=(ids.error) class="field-error" hidden {}
    }
}

/// One field of a form whose element ids start with `prefix`.
pub fn field(prefix: &str, f: &FormField) -> Markup {
    let ids = Ids::of(prefix, f);
    match f.kind {
        FieldKind::Section => html! {
            div class="form-section" {
                @if !f.title.trim().is_empty() { h3 { (f.title) } }
                @if !f.description.trim().is_empty() { p class="field-desc" { (f.description) } }
                @if f.underline { hr; }
            }
        },
        FieldKind::Hidden => html! {
            input type="hidden" name=(f.id) value=(f.value.as_deref().unwrap_or_default()) data-key=[f.key.as_deref()];
        },
        FieldKind::Name => parts(&ids, f, &NAME_PARTS, None),
        FieldKind::Address => parts(&ids, f, &ADDRESS_PARTS, None),
        FieldKind::Phone => {
            let shown: Vec<Part> =
                PHONE_PARTS.iter().copied().filter(|p| p.0 != "Country" || f.show_country_code).collect();
            parts(&ids, f, &shown, None)
        }
        FieldKind::Date => parts(&ids, f, &DATE_PARTS, None),
        FieldKind::Time => parts(&ids, f, &TIME_PARTS, Some(ampm(&ids, f))),
        FieldKind::Radio | FieldKind::Checkbox => choices(&ids, f),
        FieldKind::Select => select(&ids, f),
        FieldKind::Likert => likert(&ids, f),
        _ => single(&ids, f),
    }
}

/// Text-like fields: one labelled input or textarea.
fn single(ids: &Ids, f: &FormField) -> Markup {
    let (kind, autocomplete, inputmode) = match f.kind {
        FieldKind::Email => ("email", Some("email"), None),
        FieldKind::Number => ("number", None, None),
        FieldKind::Website => ("url", Some("url"), None),
        FieldKind::Currency => ("text", None, Some("decimal")),
        FieldKind::Password => ("password", Some("new-password"), None),
        _ => ("text", None, None),
    };
    let max_length = f.max_length.filter(|m| *m > 0);
    let placeholder = (!f.placeholder.is_empty()).then_some(f.placeholder.as_str());
    html! {
        div class={ "field field--" (kind_name(f.kind)) } {
            label for=(ids.input) {
                (label_text(f))
                @if let Some(symbol) = f.currency_symbol.as_deref().filter(|_| f.kind == FieldKind::Currency) { " (" (symbol) ")" }
                @if f.kind == FieldKind::Twitter { " (@username)" }
                (required_mark(f.required))
            }
            @if f.kind == FieldKind::Textarea {
                textarea id=(ids.input) name=(f.id) rows="5" required[f.required] placeholder=[placeholder]
                    maxlength=[max_length] aria-describedby=(ids.described_by(f)) {}
            } @else {
                input id=(ids.input) type=(kind) name=(f.id) required[f.required] placeholder=[placeholder]
                    autocomplete=[autocomplete] inputmode=[inputmode] aria-describedby=(ids.described_by(f));
            }
            (description_and_error(ids, f))
        }
    }
}

fn kind_name(kind: FieldKind) -> String {
    serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

/// A fieldset of sub-field inputs named `<field id>-<Part>`, plus an optional extra control.
fn parts(ids: &Ids, f: &FormField, parts: &[Part], extra: Option<Markup>) -> Markup {
    let numeric = matches!(f.kind, FieldKind::Date | FieldKind::Time | FieldKind::Phone);
    html! {
        fieldset id=(ids.input) class={ "field field--" (kind_name(f.kind)) } aria-describedby=(ids.described_by(f)) {
            legend { (label_text(f)) (required_mark(f.required)) }
            div class="parts" {
                @for (part, label, autocomplete, part_required) in parts {
                    @let id = format!("{}-{part}", ids.input);
                    div {
                        label for=(id) { (label) }
                        input id=(id) type=(if f.kind == FieldKind::Phone { "tel" } else { "text" }) name={ (f.id) "-" (part) }
                            required[f.required && *part_required] autocomplete=(autocomplete)
                            inputmode=[numeric.then_some("numeric")];
                    }
                }
                @if let Some(extra) = extra { (extra) }
            }
            (description_and_error(ids, f))
        }
    }
}

/// The AM/PM part of a time field.
fn ampm(ids: &Ids, f: &FormField) -> Markup {
    let id = format!("{}-Ampm", ids.input);
    html! {
        div {
            label for=(id) { "AM/PM" }
            select id=(id) name={ (f.id) "-Ampm" } required[f.required] {
                option value="AM" { "AM" }
                option value="PM" { "PM" }
            }
        }
    }
}

/// Radio buttons or checkboxes in a fieldset, each with its own label.
fn choices(ids: &Ids, f: &FormField) -> Markup {
    let kind = if f.kind == FieldKind::Radio { "radio" } else { "checkbox" };
    html! {
        fieldset id=(ids.input) class={ "field field--" (kind) } aria-describedby=(ids.described_by(f)) {
            legend { (label_text(f)) (required_mark(f.required)) }
            @for (i, option) in f.options.iter().enumerate() {
                @let id = format!("{}-{i}", ids.input);
                div class="choice" {
                    input id=(id) type=(kind) name=(f.id) value=(option) required[f.required && kind == "radio"];
                    label for=(id) { (option) }
                }
            }
            (description_and_error(ids, f))
        }
    }
}

fn select(ids: &Ids, f: &FormField) -> Markup {
    html! {
        div class="field field--select" {
            label for=(ids.input) { (label_text(f)) (required_mark(f.required)) }
            select id=(ids.input) name=(f.id) required[f.required] aria-describedby=(ids.described_by(f)) {
                option value="" { "Select an option" }
                @for option in &f.options { option value=(option) { (option) } }
            }
            (description_and_error(ids, f))
        }
    }
}

/// A table of radios: one row per question, one column per scale value (-2 to 2).
fn likert(ids: &Ids, f: &FormField) -> Markup {
    html! {
        fieldset id=(ids.input) class="field field--likert" aria-describedby=(ids.described_by(f)) {
            legend { (label_text(f)) (required_mark(f.required)) }
            table class="likert" {
                thead {
                    tr {
                        th scope="col" { span class="visually-hidden" { "Statement" } }
                        @for (_, label) in LIKERT_SCALE { th scope="col" { (label) } }
                    }
                }
                tbody {
                    @for (q, question) in f.options.iter().enumerate() {
                        tr {
                            th scope="row" { (question) }
                            @for (value, label) in LIKERT_SCALE {
                                @let id = format!("{}-{q}-{}", ids.input, value + 2);
                                td {
                                    input id=(id) type="radio" name={ (f.id) "-" (q) } value=(value) required[f.required];
                                    label for=(id) class="visually-hidden" { (question) ": " (label) }
                                }
                            }
                        }
                    }
                }
            }
            (description_and_error(ids, f))
        }
    }
}
