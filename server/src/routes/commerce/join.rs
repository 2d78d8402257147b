//! Joining a member area: `/checkout/join?memberAreaId=…&pricingOption=…` buys the area's
//! pricing option `pricingOption` (0 for the left one, 1 for the right) as a subscription
//! (see [`veranda_actors::commerce::membership`]). The member area's join buttons are
//! submit buttons of a GET form to this address, so joining works with or without scripts.
//! Like the other checkouts it is a form posting back to its own address; the placed
//! order redirects (303) to its confirmation.
//!
//! Joining makes an account: the form asks for a password too. A new email gets a new
//! account (a password of at least [`MIN_NEW_PASSWORD_CHARS`] characters); an email that
//! has an account joins with that account's password, checked under the sign-in throttle.
//! Either way the placed order signs the buyer in, and the account becomes a member when
//! the owner marks the order paid (`POST /api/commerce/orders/{id}/status`).

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;
use veranda_actors::accounts::{create_account, find_by_email, Account, AccountError, Email, Password, PasswordError};
use veranda_actors::commerce::cart::CartEntry;
use veranda_actors::commerce::carts::checkout::join;
use veranda_actors::commerce::membership::{self, plan_of_sku};

use super::checkout::{bad_link, form_page, order_placed, CheckoutPost};
use super::error::{cart_status, CommerceError};
use super::form::{self, FieldErrors, Fields};
use super::pages;
use crate::render::util::encode_query;
use crate::routes::auth::{check_password, start_signed_in, AuthError, THROTTLED_MESSAGE, UNAVAILABLE_MESSAGE};
use crate::routes::telemetry::record_account_creation;
use crate::security::crumb::CRUMB_FAIL_MESSAGE;
use crate::services::commerce::limit::CheckoutKind;
use crate::state::AppState;

/// The page's title.
const TITLE: &str = "Membership checkout";
/// The fewest characters of a new account's password.
pub const MIN_NEW_PASSWORD_CHARS: usize = 8;
/// A new account's password is too short.
pub const PASSWORD_TOO_SHORT: &str = "Choose a password of at least 8 characters.";
/// The email has an account, and the password is not its password.
pub const ACCOUNT_EXISTS: &str = "This email already has an account: enter its password to join with it.";
/// A password longer than the store takes.
const PASSWORD_TOO_LONG: &str = "This password is too long.";

/// `?memberAreaId=…&pricingOption=…` of the membership checkout.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinQuery {
    #[serde(default)]
    member_area_id: String,
    #[serde(default)]
    pricing_option: String,
}

impl JoinQuery {
    /// The entry the link buys, when it names a member area of the site as visitors see it
    /// and one of its pricing options.
    fn entry(&self, state: &AppState) -> Option<CartEntry> {
        let index = self.pricing_option.trim().parse::<usize>().ok()?;
        let site = state.services.site.current();
        let area = membership::find_area(&site, &self.member_area_id)?;
        membership::entry(&self.member_area_id, area, index)
    }

    fn action(&self) -> String {
        format!(
            "/checkout/join?memberAreaId={}&pricingOption={}",
            encode_query(&self.member_area_id),
            encode_query(self.pricing_option.trim())
        )
    }
}

fn join_form(
    req: &HttpRequest,
    state: &AppState,
    query: &JoinQuery,
    status: StatusCode,
    values: &Fields,
    errors: &FieldErrors,
    notice: Option<&str>,
) -> HttpResponse {
    let Some(entry) = query.entry(state) else { return bad_link(state, TITLE) };
    let currency = state.services.commerce.carts.shared().currency;
    let plan = plan_of_sku(&entry.sku);
    form_page(req, state, status, values, errors, notice, |view| {
        pages::join(&state.services.site.current(), &entry, plan.as_ref(), currency, &query.action(), view)
    })
}

/// `GET /checkout/join?…`: the checkout of one membership.
pub async fn show_join(req: HttpRequest, query: web::Query<JoinQuery>, state: web::Data<AppState>) -> HttpResponse {
    join_form(&req, &state, &query, StatusCode::OK, &Fields::new(), &FieldErrors::new(), None)
}

/// `POST /checkout/join?…`: buys the membership (a subscription order).
pub async fn place_join(query: web::Query<JoinQuery>, post: CheckoutPost) -> Result<HttpResponse, CommerceError> {
    let Some(entry) = query.entry(&post.state) else { return Ok(bad_link(&post.state, TITLE)) };
    if let Some(refused) = post.rate_refusal(CheckoutKind::Cart) {
        return Ok(refused);
    }
    let CheckoutPost { req, state, fields } = &post;
    let none = FieldErrors::new();
    if post.crumb_fails() {
        return Ok(join_form(req, state, &query, StatusCode::FORBIDDEN, fields, &none, Some(CRUMB_FAIL_MESSAGE)));
    }
    let customer = match form::customer(fields, false) {
        Ok(customer) => customer,
        Err(errors) => return Ok(join_form(req, state, &query, StatusCode::BAD_REQUEST, fields, &errors, None)),
    };
    let password = fields.get("password").map(String::as_str).unwrap_or_default();
    let (account, made) = match joining_account(req, state, &customer.email, password).await {
        Ok(joining) => joining,
        Err(Refusal::Field(name, message)) => {
            let errors = FieldErrors::from([(name, message.to_string())]);
            return Ok(join_form(req, state, &query, StatusCode::BAD_REQUEST, fields, &errors, None));
        }
        Err(Refusal::Notice(status, message)) => {
            return Ok(join_form(req, state, &query, status, fields, &none, Some(message)))
        }
    };
    let order = match join(state.services.commerce.carts.shared(), entry, customer).await {
        Ok(order) => order,
        Err(e) => return Ok(join_form(req, state, &query, cart_status(&e), fields, &none, Some(&e.to_string()))),
    };
    if made {
        let site = state.services.site.current();
        let page = membership::area_page(&site, &query.member_area_id).unwrap_or("/");
        record_account_creation(req, state, page, account.id.as_str()).await;
    }
    let mut placed = order_placed(state, &order);
    // The order stands whether or not the session starts: the buyer can sign in later.
    match start_signed_in(req, state, account, false).await {
        Ok(signed_in) => {
            for cookie in &signed_in.cookies {
                // A cookie built here always makes a valid header.
                let _ = placed.add_cookie(cookie);
            }
        }
        Err(e) => tracing::warn!(error = %e, order = %order.id, "a member who joined could not be signed in"),
    }
    Ok(placed)
}

/// Why the joining account was refused: a field's message (400), or a notice with its
/// status (429 throttled, 503 storage).
enum Refusal {
    Field(&'static str, &'static str),
    Notice(StatusCode, &'static str),
}

/// The account joining with `email` and `password`: the email's account when `password`
/// is its password, or a new account (not yet a member) when the email has none; `true`
/// for a new one.
async fn joining_account(
    req: &HttpRequest,
    state: &AppState,
    email: &str,
    raw: &str,
) -> Result<(Account, bool), Refusal> {
    let Ok(address) = Email::parse(email) else { return Err(Refusal::Field("email", form::EMAIL_INVALID)) };
    let password = match Password::parse(raw) {
        Ok(password) => password,
        Err(PasswordError::Empty) => return Err(Refusal::Field("password", form::REQUIRED)),
        Err(_) => return Err(Refusal::Field("password", PASSWORD_TOO_LONG)),
    };
    let unavailable = Refusal::Notice(StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE_MESSAGE);
    match find_by_email(state.services.store.as_ref(), &address) {
        Ok(Some(_)) => {
            return check_password(req, state, email, raw.to_string()).await.map(|a| (a, false)).map_err(|e| match e {
                AuthError::BadCredentials => Refusal::Field("password", ACCOUNT_EXISTS),
                AuthError::Throttled(_) => Refusal::Notice(StatusCode::TOO_MANY_REQUESTS, THROTTLED_MESSAGE),
                _ => unavailable,
            })
        }
        Ok(None) => {}
        Err(_) => return Err(unavailable),
    }
    if raw.chars().count() < MIN_NEW_PASSWORD_CHARS {
        return Err(Refusal::Field("password", PASSWORD_TOO_SHORT));
    }
    let now = time::OffsetDateTime::now_utc().unix_timestamp();
    let account = match web::block(move || Account::new(address, &password, &[], now)).await {
        Ok(Ok(account)) => account,
        _ => return Err(unavailable),
    };
    match create_account(state.services.store.as_ref(), &account).await {
        Ok(()) => Ok((account, true)),
        // Another join made the account a moment ago: its password decides, next time.
        Err(AccountError::Duplicate(_)) => Err(Refusal::Field("password", ACCOUNT_EXISTS)),
        Err(e) => {
            tracing::error!(error = %e, "an account for a member who joined could not be stored");
            Err(unavailable)
        }
    }
}
