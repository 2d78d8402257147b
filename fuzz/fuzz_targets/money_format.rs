//! Money formatting and the wire's money objects.
//!
//! Input: a mode byte. Mode 0: a currency byte, an options byte and eight bytes of
//! minor units. Every amount `Money::new` accepts formats without panicking, and the
//! text reads back to the same minor units; the JSON money object reads back within a
//! double's precision (a few units in its last place, 2^-50 of the amount), and exactly
//! below 10^15 minor units. Mode 1: the rest
//! is JSON given to `format_value`, which formats money objects and refuses anything
//! else with an error, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use veranda_actors::commerce::money::{format_value, Currency, FormatOptions, Money, MoneyError};
use veranda_fuzz::parse_formatted;

/// Below this many minor units the wire's float `value` is exact to the cent.
const EXACT_ON_THE_WIRE: u64 = 1_000_000_000_000_000;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode % 2 == 0 {
        let [c, o, a0, a1, a2, a3, a4, a5, a6, a7, ..] = *rest else { return };
        let currency = Currency::ALL[usize::from(c) % Currency::ALL.len()];
        let options = FormatOptions { grouping: o & 1 == 1, trim_zero_fractions: o & 2 == 2 };
        let minor = i64::from_le_bytes([a0, a1, a2, a3, a4, a5, a6, a7]);
        let money = match Money::new(currency, minor) {
            Ok(money) => money,
            Err(MoneyError::TooLarge) => return,
            Err(other) => panic!("Money::new refused {minor} with {other:?}"),
        };
        let text = money.format_with(options);
        assert_eq!(parse_formatted(&text, currency, options), Some(minor), "{currency} {minor} as {text:?}");
        assert_eq!(money.format(), money.format_with(FormatOptions::default()));
        let json = serde_json::to_string(&money).expect("money serialises");
        let back: Money = serde_json::from_str(&json).expect("every valid amount reads back from its own JSON");
        // A double holds about 52 bits: allow a few units in its last place.
        let tolerance = (minor.unsigned_abs() >> 50) + 1;
        assert!(back.currency() == currency && back.minor().abs_diff(minor) <= tolerance, "{json} read as {back:?}");
        if minor.unsigned_abs() < EXACT_ON_THE_WIRE {
            let json = serde_json::to_string(&money).expect("money serialises");
            let back: Money = serde_json::from_str(&json).expect("its own JSON reads back");
            assert_eq!(back, money, "{json}");
            let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
            assert_eq!(format_value(&value), Ok(money.format()));
        }
    } else if let Ok(value) = serde_json::from_slice::<serde_json::Value>(rest) {
        if let Ok(text) = format_value(&value) {
            let money: Money = serde_json::from_value(value).expect("a formatted value is a money object");
            assert_eq!(text, money.format());
        }
    }
});
