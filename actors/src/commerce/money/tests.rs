//! Money formatting in all 27 currencies, checked against `money_cases.json` (the
//! table the browser's formatter is tested against too).

use serde::Deserialize;
use serde_json::json;

use super::*;

/// One row of `money_cases.json`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Case {
    currency: String,
    minor: String,
    trim_zero_fractions: bool,
    expected: String,
}

#[derive(Deserialize)]
struct Table {
    cases: Vec<Case>,
}

#[test]
fn every_currency_formats_as_the_table_says() {
    let table: Table = serde_json::from_str(include_str!("money_cases.json")).expect("the table parses");
    let mut seen = std::collections::HashSet::new();
    for case in &table.cases {
        let currency = Currency::parse(&case.currency).expect("a supported currency");
        seen.insert(currency);
        let minor: i64 = case.minor.parse().expect("an integer");
        let money = Money::new(currency, minor).expect("within 15 integer places");
        let options = FormatOptions { grouping: true, trim_zero_fractions: case.trim_zero_fractions };
        assert_eq!(money.format_with(options), case.expected, "{} {}", case.currency, case.minor);
    }
    assert_eq!(seen.len(), 27);
}

#[test]
fn grouping_is_on_and_trimming_off_by_default() {
    let usd = |minor| Money::new(Currency::USD, minor).expect("small");
    assert_eq!(usd(1200).format(), "$12.00");
    assert_eq!(usd(1250).format(), "$12.50");
    assert_eq!(usd(123_456_700).format(), "$1,234,567.00");
    let trimmed = FormatOptions { grouping: true, trim_zero_fractions: true };
    assert_eq!(usd(1200).format_with(trimmed), "$12");
    let plain = FormatOptions { grouping: false, trim_zero_fractions: false };
    assert_eq!(usd(123_456_700).format_with(plain), "$1234567.00");
}

#[test]
fn yen_has_no_fraction_and_others_two() {
    assert_eq!(Currency::JPY.fraction_digits(), 0);
    for c in Currency::ALL.into_iter().filter(|c| *c != Currency::JPY) {
        assert_eq!(c.fraction_digits(), 2, "{c}");
    }
    assert_eq!(Money::new(Currency::JPY, 1500).expect("small").format(), "¥1,500");
}

#[test]
fn more_than_fifteen_integer_places_is_refused() {
    assert!(Money::new(Currency::USD, 99_999_999_999_999_999).is_ok());
    assert_eq!(Money::new(Currency::USD, 100_000_000_000_000_000), Err(MoneyError::TooLarge));
    assert!(Money::new(Currency::JPY, 999_999_999_999_999).is_ok());
    assert_eq!(Money::new(Currency::JPY, 1_000_000_000_000_000), Err(MoneyError::TooLarge));
    assert_eq!(Money::new(Currency::EUR, -100_000_000_000_000_000), Err(MoneyError::TooLarge));
}

#[test]
fn the_default_currency_is_usd() {
    assert_eq!(Currency::default(), Currency::USD);
    assert_eq!(Money::default().format(), "$0.00");
}

#[test]
fn money_objects_round_trip_through_json() {
    let money = Money::new(Currency::EUR, 1999).expect("small");
    let value = serde_json::to_value(money).expect("serialises");
    assert_eq!(value, json!({ "currencyCode": "EUR", "value": 19.99 }));
    assert_eq!(serde_json::from_value::<Money>(value).expect("parses"), money);
    assert_eq!(format_value(&json!({ "currencyCode": "jpy", "value": 1500 })), Ok("¥1,500".into()));
}

#[test]
fn anything_but_a_money_object_is_refused_with_the_spec_message() {
    for bad in [
        json!(12.5),
        json!("$12"),
        json!(null),
        json!({ "value": 1 }),
        json!({ "currencyCode": "USD" }),
        json!({ "currencyCode": "XYZ", "value": 1 }),
        json!({ "currencyCode": "USD", "value": "1" }),
    ] {
        let error = format_value(&bad).expect_err("not money");
        assert_eq!(error.to_string(), FORMAT_EXPECTS_MONEY, "{bad}");
    }
}

#[test]
fn the_largest_amounts_read_back_from_their_own_json() {
    // The second one is written as 999236167322829.5, which reads back 23 units off.
    for minor in [99_999_999_999_999_999, 99_923_616_732_282_937, -99_999_999_999_999_999] {
        let money = Money::new(Currency::EUR, minor).expect("15 integer places");
        let text = serde_json::to_string(&money).expect("serialises");
        let back: Money = serde_json::from_str(&text).expect("its own JSON reads back");
        assert!(back.minor().abs_diff(minor) <= 100, "{text} read as {}", back.minor());
    }
    let yen = json!({ "currencyCode": "JPY", "value": 1e15 });
    assert!(serde_json::from_value::<Money>(yen).is_err(), "a yen amount of 10^15 is exact and too large");
}
