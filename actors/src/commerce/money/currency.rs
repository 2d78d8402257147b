//! The 27 store currencies (spec 000 §9), their fraction digits (§5) and the symbol an
//! `en-US` browser shows for each (`Intl.NumberFormat`), so server and browser agree.

use serde::{Deserialize, Serialize};

/// One supported store currency; variants are ISO 4217 codes.
#[allow(clippy::upper_case_acronyms)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Currency {
    EUR,
    #[default]
    USD,
    AUD,
    NOK,
    CAD,
    NZD,
    DKK,
    GBP,
    HKD,
    CHF,
    MXN,
    SGD,
    SEK,
    CZK,
    ILS,
    PHP,
    RUB,
    PLN,
    THB,
    MYR,
    ARS,
    BRL,
    COP,
    IDR,
    INR,
    JPY,
    ZAR,
}

impl Currency {
    /// Every supported currency, in the spec's order.
    pub const ALL: [Currency; 27] = [
        Currency::EUR,
        Currency::USD,
        Currency::AUD,
        Currency::NOK,
        Currency::CAD,
        Currency::NZD,
        Currency::DKK,
        Currency::GBP,
        Currency::HKD,
        Currency::CHF,
        Currency::MXN,
        Currency::SGD,
        Currency::SEK,
        Currency::CZK,
        Currency::ILS,
        Currency::PHP,
        Currency::RUB,
        Currency::PLN,
        Currency::THB,
        Currency::MYR,
        Currency::ARS,
        Currency::BRL,
        Currency::COP,
        Currency::IDR,
        Currency::INR,
        Currency::JPY,
        Currency::ZAR,
    ];

    /// The currency with ISO code `code` (any case), if supported.
    pub fn parse(code: &str) -> Option<Currency> {
        let code = code.trim();
        Currency::ALL.into_iter().find(|c| c.code().eq_ignore_ascii_case(code))
    }

    /// The ISO 4217 code.
    pub fn code(self) -> &'static str {
        match self {
            Currency::EUR => "EUR",
            Currency::USD => "USD",
            Currency::AUD => "AUD",
            Currency::NOK => "NOK",
            Currency::CAD => "CAD",
            Currency::NZD => "NZD",
            Currency::DKK => "DKK",
            Currency::GBP => "GBP",
            Currency::HKD => "HKD",
            Currency::CHF => "CHF",
            Currency::MXN => "MXN",
            Currency::SGD => "SGD",
            Currency::SEK => "SEK",
            Currency::CZK => "CZK",
            Currency::ILS => "ILS",
            Currency::PHP => "PHP",
            Currency::RUB => "RUB",
            Currency::PLN => "PLN",
            Currency::THB => "THB",
            Currency::MYR => "MYR",
            Currency::ARS => "ARS",
            Currency::BRL => "BRL",
            Currency::COP => "COP",
            Currency::IDR => "IDR",
            Currency::INR => "INR",
            Currency::JPY => "JPY",
            Currency::ZAR => "ZAR",
        }
    }

    /// Digits after the decimal point: 2, except JPY 0 (spec 000 §5).
    pub fn fraction_digits(self) -> u32 {
        match self {
            Currency::JPY => 0,
            _ => 2,
        }
    }

    /// Minor units in one major unit (100, or 1 for JPY).
    pub fn minor_per_major(self) -> i64 {
        10_i64.pow(self.fraction_digits())
    }

    /// The symbol written straight before the number, when `en-US` has one; other
    /// currencies are written as their code and a no-break space.
    pub fn symbol(self) -> Option<&'static str> {
        Some(match self {
            Currency::USD => "$",
            Currency::EUR => "€",
            Currency::GBP => "£",
            Currency::JPY => "¥",
            Currency::AUD => "A$",
            Currency::CAD => "CA$",
            Currency::NZD => "NZ$",
            Currency::HKD => "HK$",
            Currency::MXN => "MX$",
            Currency::BRL => "R$",
            Currency::ILS => "₪",
            Currency::INR => "₹",
            Currency::PHP => "₱",
            _ => return None,
        })
    }
}

impl std::fmt::Display for Currency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}
