//! Money: a currency and an amount in minor units (cents; yen for JPY).
//!
//! [`Money::new`] refuses amounts with more than [`MAX_INTEGER_PLACES`] integer digits;
//! [`Money::format`] writes the amount as an `en-US` browser's `Intl.NumberFormat` does
//! (grouping on, zero fractions kept by default). On the wire a money object is
//! `{ "currencyCode": "USD", "value": 12.5 }` (spec 000 §3); [`format_value`] formats
//! such a JSON value and refuses anything else with [`FORMAT_EXPECTS_MONEY`].
//!
//! `money_cases.json` holds the expected text for every currency, so the browser's
//! formatter is tested against the same table.

mod currency;
mod format;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ts_rs::TS;

pub use currency::Currency;
pub use format::FormatOptions;

/// Most digits before the decimal point (spec 000 §5).
pub const MAX_INTEGER_PLACES: u32 = 15;
/// The error of formatting anything but a money object (spec 000 §8).
pub const FORMAT_EXPECTS_MONEY: &str = "Format expects a Money instance.";

/// Why a money value could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Not a money object (or its currency is not supported).
    #[error("{}", FORMAT_EXPECTS_MONEY)]
    NotMoney,
    /// More than [`MAX_INTEGER_PLACES`] digits before the decimal point.
    #[error("amounts may have at most {MAX_INTEGER_PLACES} digits before the decimal point")]
    TooLarge,
}

/// An amount of one currency, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Money {
    /// The currency.
    currency: Currency,
    /// The amount in minor units; negative for refunds and discounts.
    minor: i64,
}

impl Money {
    /// `minor` units of `currency`, if the amount has at most 15 integer places.
    pub fn new(currency: Currency, minor: i64) -> Result<Money, MoneyError> {
        let limit = 10_i64.pow(MAX_INTEGER_PLACES) * currency.minor_per_major();
        if minor.unsigned_abs() >= limit.unsigned_abs() {
            return Err(MoneyError::TooLarge);
        }
        Ok(Money { currency, minor })
    }

    /// Zero of `currency`.
    pub fn zero(currency: Currency) -> Money {
        Money { currency, minor: 0 }
    }

    /// The currency.
    pub fn currency(self) -> Currency {
        self.currency
    }

    /// The amount in minor units.
    pub fn minor(self) -> i64 {
        self.minor
    }

    /// The amount in major units as a float (the wire's `value`).
    pub fn value(self) -> f64 {
        self.minor as f64 / self.currency.minor_per_major() as f64
    }

    /// The amount as text with the default options (grouping, zero fractions kept).
    pub fn format(self) -> String {
        self.format_with(FormatOptions::default())
    }

    /// The amount as text with `options`.
    pub fn format_with(self, options: FormatOptions) -> String {
        format::format(self, options)
    }
}

/// The wire form of a money object (`{currencyCode, value}`).
#[derive(Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoneyJson {
    /// ISO currency code.
    pub currency_code: String,
    /// Amount in major units.
    pub value: f64,
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        MoneyJson { currency_code: self.currency.code().to_string(), value: self.value() }.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = MoneyJson::deserialize(deserializer)?;
        from_wire(&wire).map_err(serde::de::Error::custom)
    }
}

fn from_wire(wire: &MoneyJson) -> Result<Money, MoneyError> {
    let currency = Currency::parse(&wire.currency_code).ok_or(MoneyError::NotMoney)?;
    if !wire.value.is_finite() {
        return Err(MoneyError::NotMoney);
    }
    let per = currency.minor_per_major() as f64;
    let minor = (wire.value * per).round();
    if minor.abs() >= 1e18 {
        return Err(MoneyError::TooLarge);
    }
    // In range of i64 by the check above.
    let mut minor = minor as i64;
    // Near 10^15 major units a double cannot hold every cent, so the largest amounts are
    // written as exactly 10^15: read that as the largest amount rather than refuse it.
    let spacing = f64::from_bits(wire.value.abs().to_bits() + 1) - wire.value.abs();
    if minor.unsigned_abs() == 10_u64.pow(MAX_INTEGER_PLACES) * per as u64 && spacing * per > 1.0 {
        minor -= minor.signum();
    }
    Money::new(currency, minor)
}

/// Formats a JSON value that should be a money object; anything else is
/// [`MoneyError::NotMoney`] ('Format expects a Money instance.').
pub fn format_value(value: &serde_json::Value) -> Result<String, MoneyError> {
    let wire: MoneyJson = serde_json::from_value(value.clone()).map_err(|_| MoneyError::NotMoney)?;
    Ok(from_wire(&wire)?.format())
}

#[cfg(test)]
mod tests;
