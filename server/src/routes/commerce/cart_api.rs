//! The cart's JSON API. Reads are GET/HEAD and need no crumb; every change is
//! crumb-checked (403 `crumbFail`), answers with the whole cart once it is durable,
//! and sets the cart cookie when the visitor had no (well-formed) one.

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use futures_util::future::LocalBoxFuture;
use serde::Deserialize;
use veranda_actors::commerce::cart::{CartChange, ShoppingCart};
use veranda_actors::commerce::rules::ShippingLocation;

use super::cookie::CartId;
use super::error::{CommerceBody, CommerceError};
use crate::edge::{no_store, Crumbed, LimitedJson};
use crate::state::AppState;

/// `POST /api/commerce/cart/entries` body: the variant by `sku`, or a product with one
/// variant by `itemId`; `quantity` defaults to 1.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AddEntryBody {
    #[serde(default)]
    sku: Option<String>,
    #[serde(default)]
    item_id: Option<String>,
    #[serde(default)]
    quantity: Option<i64>,
}

/// `PUT /api/commerce/cart/entries/{sku}` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuantityBody {
    quantity: i64,
}

/// `POST /api/commerce/cart/coupons` body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CouponBody {
    code: String,
}

/// `PUT /api/commerce/cart/shipping-option` body.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShippingOptionBody {
    option_id: String,
}

/// A JSON body of the cart API, read within the commerce body limit.
type Body<T> = LimitedJson<T, CommerceBody>;

/// A change to the visitor's cart, its crumb checked before anything else is read
/// (403 `crumbFail`).
pub struct CartEdit {
    req: HttpRequest,
    state: web::Data<AppState>,
}

impl FromRequest for CartEdit {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<CartEdit, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(Crumbed, web::Data<AppState>)>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let (_, state) = parts.await?;
            Ok(CartEdit { req, state })
        })
    }
}

impl CartEdit {
    /// Applies `change` to the visitor's cart (a new one without a cookie) and answers
    /// with the cart, setting the cookie for a new cart.
    async fn apply(self, change: CartChange) -> Result<HttpResponse, CommerceError> {
        let (id, new) = match CartId::from_request(&self.req) {
            Some(id) => (id, false),
            None => (CartId::generate(), true),
        };
        let cart = self.state.services.commerce.change(id.as_str(), change).await?;
        let mut response = no_store(HttpResponse::Ok());
        if new {
            response.cookie(id.cookie());
        }
        Ok(response.json(cart))
    }
}

/// `GET /api/commerce/cart`: the visitor's cart, or an empty one (not stored) when
/// there is none yet.
pub async fn get(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, CommerceError> {
    let carts = &state.services.commerce.carts;
    let stored = match CartId::from_request(&req) {
        Some(id) => carts.get(id.as_str()).await?,
        None => None,
    };
    let shared = carts.shared();
    let cart = stored.unwrap_or_else(|| ShoppingCart::new("", &shared.website_id, shared.currency, 0));
    Ok(no_store(HttpResponse::Ok()).json(cart))
}

/// `POST /api/commerce/cart/entries`: adds units of a variant.
pub async fn add_entry(edit: CartEdit, body: Body<AddEntryBody>) -> Result<HttpResponse, CommerceError> {
    let body = body.into_inner();
    let sku = match (body.sku, body.item_id) {
        (Some(sku), _) => sku,
        (None, Some(item)) => match edit.state.services.commerce.catalog().skus_of(&item) {
            [only] => only.clone(),
            [] => return Err(CommerceError::Malformed(format!("There is no product '{item}' in this store."))),
            _ => return Err(CommerceError::Malformed("Choose a variant: this product has several.".into())),
        },
        (None, None) => return Err(CommerceError::Malformed("Name the variant to add by sku or itemId.".into())),
    };
    let quantity = quantity(body.quantity.unwrap_or(1))?;
    edit.apply(CartChange::AddEntry { sku, quantity }).await
}

/// `PUT /api/commerce/cart/entries/{sku}`: sets an entry's quantity.
pub async fn change_quantity(
    edit: CartEdit,
    sku: web::Path<String>,
    body: Body<QuantityBody>,
) -> Result<HttpResponse, CommerceError> {
    let quantity = quantity(body.into_inner().quantity)?;
    edit.apply(CartChange::ChangeQuantity { sku: sku.into_inner(), quantity }).await
}

/// `DELETE /api/commerce/cart/entries/{sku}`: removes an entry.
pub async fn remove_entry(edit: CartEdit, sku: web::Path<String>) -> Result<HttpResponse, CommerceError> {
    edit.apply(CartChange::RemoveEntry { sku: sku.into_inner() }).await
}

/// `POST /api/commerce/cart/coupons`: enters a coupon code (unknown codes are listed
/// in `invalidCoupons`).
pub async fn apply_coupon(edit: CartEdit, body: Body<CouponBody>) -> Result<HttpResponse, CommerceError> {
    edit.apply(CartChange::ApplyCoupon { code: body.into_inner().code }).await
}

/// `DELETE /api/commerce/cart/coupons/{code}`: removes a coupon code.
pub async fn remove_coupon(edit: CartEdit, code: web::Path<String>) -> Result<HttpResponse, CommerceError> {
    edit.apply(CartChange::RemoveCoupon { code: code.into_inner() }).await
}

/// `PUT /api/commerce/cart/shipping-option`: chooses a shipping option.
pub async fn select_shipping(edit: CartEdit, body: Body<ShippingOptionBody>) -> Result<HttpResponse, CommerceError> {
    edit.apply(CartChange::SelectShipping { option_id: body.into_inner().option_id }).await
}

/// `PUT /api/commerce/cart/shipping-location`: sets where the order ships.
pub async fn set_location(edit: CartEdit, body: Body<ShippingLocation>) -> Result<HttpResponse, CommerceError> {
    edit.apply(CartChange::SetShippingLocation(body.into_inner())).await
}

/// A quantity from the wire: 1 to the entry limit, else the cart's own message.
fn quantity(value: i64) -> Result<u32, CommerceError> {
    use veranda_actors::commerce::cart::CartError;
    use veranda_actors::commerce::rules::MAX_ENTRY_QUANTITY;
    u32::try_from(value)
        .ok()
        .filter(|q| (1..=MAX_ENTRY_QUANTITY).contains(q))
        .ok_or(CommerceError::Cart(CartError::BadQuantity { max: MAX_ENTRY_QUANTITY }))
}
