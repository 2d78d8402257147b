//! Why a commerce call was refused, and the status and JSON body each refusal gets:
//! `{ "error": … }`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use veranda_actors::commerce::cart::CartError;

use crate::edge::body::{BodyError, BodyRules};
use crate::edge::no_store;

/// A refused commerce call.
#[derive(Debug, thiserror::Error)]
pub enum CommerceError {
    /// The body is not what the call takes.
    #[error("{0}")]
    Malformed(String),
    /// The body is larger than the server accepts.
    #[error("The request body is too large.")]
    TooLarge,
    /// The cart refused the change.
    #[error("{0}")]
    Cart(#[from] CartError),
}

impl ResponseError for CommerceError {
    fn status_code(&self) -> StatusCode {
        match self {
            CommerceError::Malformed(_) => StatusCode::BAD_REQUEST,
            CommerceError::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            CommerceError::Cart(e) => cart_status(e),
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = no_store(HttpResponse::build(self.status_code()));
        if matches!(self, CommerceError::Cart(CartError::Unavailable | CartError::StoreUnavailable(_))) {
            response.insert_header((header::RETRY_AFTER, "1"));
        }
        if let CommerceError::Cart(CartError::Store(e) | CartError::StoreUnavailable(e)) = self {
            tracing::error!(error = %e, "a cart could not be saved");
        }
        response.json(serde_json::json!({ "error": self.to_string() }))
    }
}

/// Commerce bodies: at most the `max_body_bytes` setting, refused as [`CommerceError`].
pub struct CommerceBody;

impl BodyRules for CommerceBody {
    type Refusal = CommerceError;
}

impl From<BodyError> for CommerceError {
    fn from(e: BodyError) -> CommerceError {
        e.malformed("request", "form").map_or(CommerceError::TooLarge, CommerceError::Malformed)
    }
}

/// The status of a cart refusal.
pub fn cart_status(e: &CartError) -> StatusCode {
    match e {
        CartError::UnknownVariant(_)
        | CartError::BadQuantity { .. }
        | CartError::TooManyEntries(_)
        | CartError::BadCoupon(_)
        | CartError::TooManyCoupons(_)
        | CartError::UnknownShippingOption(_)
        | CartError::BadLocation(_)
        | CartError::Empty => StatusCode::BAD_REQUEST,
        CartError::NotInCart(_) => StatusCode::NOT_FOUND,
        CartError::NotForSale(_) | CartError::Purchased | CartError::OutOfStock { .. } => StatusCode::CONFLICT,
        CartError::PaymentDeclined(_) => StatusCode::PAYMENT_REQUIRED,
        CartError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        CartError::Unavailable | CartError::StoreUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
        CartError::Conflict => StatusCode::CONFLICT,
    }
}
