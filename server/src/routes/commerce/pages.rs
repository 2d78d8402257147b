//! The HTML of the checkout pages and the confirmation pages. Every page works without
//! JavaScript: plain forms posting back to the same address, with the crumb in a
//! hidden field, labelled inputs, errors tied to their fields and announced.

use maud::{html, Markup, DOCTYPE};
use veranda_actors::commerce::cart::{CartEntry, ShoppingCart};
use veranda_actors::commerce::catalog::CatalogVariant;
use veranda_actors::commerce::membership;
use veranda_actors::commerce::money::{Currency, Money};
use veranda_actors::commerce::order::{Order, OrderKind, OrderStatus};
use veranda_actors::commerce::subscription::PlanTerms;
use veranda_actors::domain::enums::PageType;
use veranda_actors::site::content::SubscriptionPlan;
use veranda_actors::site::Site;

use super::form::{FieldErrors, Fields};

/// What a checkout form needs besides its fields.
pub struct FormView<'a> {
    /// The crumb for the hidden field.
    pub crumb: &'a str,
    /// Values to show again after a refused post.
    pub values: &'a Fields,
    /// Messages by field.
    pub errors: &'a FieldErrors,
    /// A message for the whole form.
    pub notice: Option<&'a str>,
}

/// `minor` units as text.
pub fn money(minor: u64, currency: Currency) -> String {
    Money::new(currency, i64::try_from(minor).unwrap_or(i64::MAX)).map(Money::format).unwrap_or_default()
}

/// A whole document of `page_type` with `title` and `body`.
pub fn document(site: &Site, page_type: PageType, title: &str, body: Markup) -> String {
    let website = &site.settings.website;
    html! {
        (DOCTYPE)
        html lang=(website.locale) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="robots" content="noindex";
                title { (title) " · " (website.title) }
                style { (STYLE) }
            }
            body class={ "page-type-" (page_type.name()) } data-page-type=(page_type.id()) {
                header { p { a href="/" { (website.title) } } }
                main id="main" { h1 { (title) } (body) }
            }
        }
    }
    .into_string()
}

/// Small, readable defaults: these pages carry no site stylesheet.
const STYLE: &str = "body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:0 auto;padding:1rem}\
label{display:block;margin-top:.75rem;font-weight:600}input,select{font:inherit;width:100%;padding:.4rem}\
.field-error{color:#a00;font-weight:400}button{font:inherit;margin-top:1rem;padding:.5rem 1.25rem}\
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem}\
th .plan-price,th .renewal{margin:.25rem 0 0;font-weight:400}\
.notice{border:2px solid #a00;padding:.5rem}@media (prefers-reduced-motion:reduce){*{transition:none!important}}";

/// A page with one message (and a way back to the shop).
pub fn message(site: &Site, title: &str, text: &str) -> String {
    document(
        site,
        PageType::Checkout,
        title,
        html! { p role="alert" { (text) } p { a href="/" { "Back to the site" } } },
    )
}

/// One labelled input with its error.
fn field(
    view: &FormView<'_>,
    name: &'static str,
    label: &str,
    kind: &str,
    autocomplete: &str,
    required: bool,
) -> Markup {
    let value = view.values.get(name).map(String::as_str).unwrap_or_default();
    let error = view.errors.get(name);
    let error_id = format!("{name}-error");
    html! {
        label for=(name) { (label) @if !required { " (optional)" } }
        input id=(name) name=(name) type=(kind) value=(value) autocomplete=(autocomplete) required[required]
            aria-invalid=[error.map(|_| "true")] aria-describedby=[error.map(|_| error_id.as_str())];
        @if let Some(message) = error { span id=(error_id) class="field-error" { (message) } }
    }
}

fn notice(view: &FormView<'_>) -> Markup {
    let text = view.notice.map(str::to_string).or_else(|| {
        (!view.errors.is_empty()).then(|| "One or more fields is invalid, please check your entries.".to_string())
    });
    html! { @if let Some(text) = text { p class="notice" role="alert" tabindex="-1" { (text) } } }
}

fn buyer_fields(view: &FormView<'_>) -> Markup {
    html! {
        (field(view, "email", "Email", "email", "email", true))
        (field(view, "name", "Name", "text", "name", true))
    }
}

fn address_fields(view: &FormView<'_>) -> Markup {
    html! {
        fieldset {
            legend { "Shipping address" }
            (field(view, "addressLine1", "Address", "text", "address-line1", true))
            (field(view, "addressLine2", "Address line 2", "text", "address-line2", false))
            (field(view, "city", "City", "text", "address-level2", true))
            (field(view, "region", "State or region", "text", "address-level1", false))
            (field(view, "postalCode", "Postal code", "text", "postal-code", true))
            (field(view, "country", "Country code (e.g. US)", "text", "country", true))
        }
    }
}

fn summary(cart: &ShoppingCart) -> Markup {
    let currency = cart.subtotal_amount.currency();
    let m = |c| money(c, currency);
    html! {
        table {
            caption { "Your order" }
            thead { tr { th scope="col" { "Item" } th scope="col" { "Quantity" } th scope="col" { "Total" } } }
            tbody {
                @for e in &cart.entries {
                    tr { td { (e.title) @if !e.options.is_empty() { " (" (e.options.join(", ")) ")" } } td { (e.quantity) } td { (m(e.total_cents)) } }
                }
            }
        }
        dl {
            dt { "Subtotal" } dd { (m(cart.subtotal_cents)) }
            @if cart.discount_cents > 0 { dt { "Discount" } dd { "−" (m(cart.discount_cents)) } }
            @if cart.requires_shipping { dt { "Shipping" } dd { (m(cart.shipping_cost_cents)) } }
            dt { "Tax" } dd { (m(cart.tax_cents)) }
            dt { "Total" } dd { strong { (m(cart.grand_total_cents)) } }
        }
    }
}

/// What a plan costs (`4 payments of $25.00, every 2 weeks ($100.00 in all)`) and how it renews.
pub fn plan_terms(terms: &PlanTerms) -> Markup {
    html! {
        p class="plan-price" { (terms.price) }
        p class="renewal" { (terms.renewal) }
    }
}

/// The checkout page of a cart: summary, buyer and (when it ships) address fields.
pub fn checkout(site: &Site, cart: &ShoppingCart, plans: &[PlanTerms], action: &str, view: &FormView<'_>) -> String {
    let title = if plans.is_empty() { "Checkout" } else { "Subscription checkout" };
    let body = html! {
        (notice(view))
        (summary(cart))
        @for terms in plans { (plan_terms(terms)) }
        form method="post" action=(action) novalidate {
            input type="hidden" name="crumb" value=(view.crumb);
            (buyer_fields(view))
            @if cart.requires_shipping { (address_fields(view)) }
            button type="submit" { "Place order" }
        }
    };
    document(site, PageType::Checkout, title, body)
}

/// The donation page: amount and the donor.
pub fn donate(site: &Site, action: &str, suggested: &[String], view: &FormView<'_>) -> String {
    let body = html! {
        (notice(view))
        @if !suggested.is_empty() { p { "Suggested amounts: " (suggested.join(", ")) } }
        form method="post" action=(action) novalidate {
            input type="hidden" name="crumb" value=(view.crumb);
            (field(view, "amount", "Amount", "text", "transaction-amount", true))
            (buyer_fields(view))
            button type="submit" { "Donate" }
        }
    };
    document(site, PageType::Donate, "Donate", body)
}

/// What is bought, with its options and its price: `Title (Option, Option): $9.00`.
fn priced(title: &str, options: &[String], cents: u64, currency: Currency) -> Markup {
    html! {
        p { (title) @if !options.is_empty() { " (" (options.join(", ")) ")" } ": " strong { (money(cents, currency)) } }
    }
}

/// The gift card page: the card and the buyer.
pub fn gift_card(
    site: &Site,
    variant: &CatalogVariant,
    currency: Currency,
    action: &str,
    view: &FormView<'_>,
) -> String {
    let body = html! {
        (notice(view))
        (priced(&variant.title, &variant.options, variant.unit_price_cents, currency))
        form method="post" action=(action) novalidate {
            input type="hidden" name="crumb" value=(view.crumb);
            (buyer_fields(view))
            button type="submit" { "Buy gift card" }
        }
    };
    document(site, PageType::Checkout, "Gift card checkout", body)
}

/// The membership page: the pricing option with how it renews, and the member.
pub fn join(
    site: &Site,
    entry: &CartEntry,
    plan: Option<&SubscriptionPlan>,
    currency: Currency,
    action: &str,
    view: &FormView<'_>,
) -> String {
    let body = html! {
        (notice(view))
        (priced(&entry.title, &entry.options, entry.unit_price_cents, currency))
        @if let Some(terms) = plan.and_then(|plan| PlanTerms::of_cents(plan, entry.total_cents, currency)) {
            (plan_terms(&terms))
        }
        form method="post" action=(action) novalidate {
            input type="hidden" name="crumb" value=(view.crumb);
            (buyer_fields(view))
            (password_field(view))
            button type="submit" { "Join" }
        }
    };
    document(site, PageType::Checkout, "Membership checkout", body)
}

/// The member's password: a new one (8 characters or more) for a new email, the account's
/// own for an email that has one. Never filled back in.
fn password_field(view: &FormView<'_>) -> Markup {
    let error = view.errors.get("password");
    let described = if error.is_some() { "password-hint password-error" } else { "password-hint" };
    html! {
        label for="password" { "Password" }
        input id="password" name="password" type="password" autocomplete="new-password" required
            aria-invalid=[error.map(|_| "true")] aria-describedby=(described);
        span id="password-hint" class="field-hint" {
            "Sign in to member pages with it: choose one of 8 characters or more, or give your account's password if this email has one."
        }
        @if let Some(message) = error { span id="password-error" class="field-error" { (message) } }
    }
}

/// The page type of an order's confirmation: order (202), subscription (206),
/// contribution (204) or membership (208) confirmed.
pub fn confirmation_type(order: &Order) -> PageType {
    match order.kind {
        OrderKind::Subscription if membership::joins(&order.entries) => PageType::MembershipConfirmed,
        OrderKind::Order => PageType::OrderConfirmed,
        OrderKind::Subscription => PageType::SubscriptionConfirmed,
        OrderKind::Contribution => PageType::ContributionConfirmed,
    }
}

/// What a membership's confirmation says of the member pages.
fn membership_status(order: &Order) -> Markup {
    html! {
        @if order.status == OrderStatus::Paid {
            p class="membership-status" { "Your membership is active: member pages open to " (order.customer.email) "." }
        } @else {
            p class="membership-status" { "Member pages open to " (order.customer.email) " once the payment is confirmed." }
        }
    }
}

/// The confirmation page of `order`.
pub fn confirmation(site: &Site, order: &Order, plans: &[PlanTerms]) -> String {
    let m = |c| money(c, order.currency);
    let page_type = confirmation_type(order);
    let title = match page_type {
        PageType::MembershipConfirmed => "Thank you for joining",
        PageType::SubscriptionConfirmed => "Your subscription is confirmed",
        PageType::ContributionConfirmed => "Thank you for your contribution",
        _ => "Thank you for your order",
    };
    let body = html! {
        p role="status" { "Order " strong class="order-id" { (order.id) } ". A receipt goes to " (order.customer.email) "." }
        @if page_type == PageType::MembershipConfirmed { (membership_status(order)) }
        ul {
            @for e in &order.entries { li { (e.quantity) " × " (e.title) ": " (m(e.total_cents)) } }
        }
        @for terms in plans { (plan_terms(terms)) }
        p { "Total: " strong class="grand-total" { (m(order.grand_total_cents)) } }
        p { a href="/" { "Back to the site" } }
    };
    document(site, page_type, title, body)
}
