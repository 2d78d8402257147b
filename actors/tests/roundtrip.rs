//! Round trips of the formats Veranda writes and reads back, over generated values:
//!
//! - visit cookies: every `ss_cvr`/`ss_cvt` the server writes parses back to the same
//!   values, and the next hit continues from them;
//! - money: formatted text reads back to the same minor units; the wire's money object
//!   (`{currencyCode, value}`, `value` a double) reads back exactly below 10^15 minor
//!   units. Above that a double no longer holds every cent (the browser's numbers have
//!   the same limit): larger amounts read back within a few units in the double's last
//!   place (2^-50 of the amount, about 90 cents at 10^15 major units), and the largest
//!   ones (written as exactly 10^15) still read back;
//! - carts, saved to the store and loaded back;
//! - stream events: the frame JSON, and `(epoch, offset)` journal keys, which must read
//!   back in offset order across byte boundaries so a restart resumes where it stopped.

use std::sync::Arc;

use proptest::prelude::*;
use veranda_actors::commerce::cart::ShoppingCart;
use veranda_actors::commerce::money::{format_value, Currency, FormatOptions, Money};
use veranda_actors::commerce::storage::{CommerceStorage, StoreStorage};
use veranda_actors::store::{SledStore, Store};
use veranda_actors::streams::{Frame, Journal, Resume, StoredEvent, StreamLimits, StreamName};
use veranda_actors::telemetry::cookie::{next_visit, VisitTimestamp, VisitorCookie, VisitorId, VISIT_LENGTH_MS};

/// Largest magnitude `Money::new` accepts for `currency` (15 integer places).
fn max_minor(currency: Currency) -> i64 {
    10_i64.pow(15) * currency.minor_per_major() - 1
}

/// Below this many minor units the wire's double holds every cent.
const EXACT_ON_THE_WIRE: i64 = 1_000_000_000_000_000;

fn currency() -> impl Strategy<Value = Currency> {
    prop::sample::select(Currency::ALL.to_vec())
}

fn money() -> impl Strategy<Value = Money> {
    currency().prop_flat_map(|c| {
        let max = max_minor(c);
        prop_oneof![-max..=max, -100_000_i64..100_000, Just(max), Just(-max), Just(0)]
            .prop_map(move |minor| Money::new(c, minor).expect("within 15 integer places"))
    })
}

fn wire_money() -> impl Strategy<Value = Money> {
    (currency(), -EXACT_ON_THE_WIRE + 1..EXACT_ON_THE_WIRE)
        .prop_map(|(c, minor)| Money::new(c, minor).expect("within 15 integer places"))
}

/// Reads `Money::format_with` text back into minor units (sign, symbol or code and a
/// no-break space, grouped digits, the fraction unless trimmed).
fn parse_formatted(text: &str, currency: Currency, options: FormatOptions) -> Option<i64> {
    let (negative, rest) = text.strip_prefix('-').map_or((false, text), |r| (true, r));
    let rest = match currency.symbol() {
        Some(symbol) => rest.strip_prefix(symbol)?,
        None => rest.strip_prefix(currency.code())?.strip_prefix('\u{a0}')?,
    };
    let (integer, fraction) = rest.split_once('.').map_or((rest, None), |(i, f)| (i, Some(f)));
    let groups: Vec<&str> = integer.split(',').collect();
    if options.grouping {
        let ok = (1..=3).contains(&groups[0].len()) && groups[1..].iter().all(|g| g.len() == 3);
        if !ok {
            return None;
        }
    } else if groups.len() > 1 {
        return None;
    }
    let digits = groups.concat();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    let places = currency.fraction_digits() as usize;
    let cents: i64 = match fraction {
        Some(f) if places > 0 && f.len() == places && f.bytes().all(|b| b.is_ascii_digit()) => f.parse().ok()?,
        Some(_) => return None,
        None if places > 0 && !options.trim_zero_fractions => return None,
        None => 0,
    };
    let magnitude = digits.parse::<i64>().ok()?.checked_mul(currency.minor_per_major())?.checked_add(cents)?;
    Some(if negative { -magnitude } else { magnitude })
}

fn visitor_id() -> impl Strategy<Value = VisitorId> {
    "[A-Za-z0-9_-]{1,64}".prop_map(|id| VisitorId::parse(&id).expect("a word/dash id"))
}

fn cart() -> impl Strategy<Value = ShoppingCart> {
    let entry = (
        "[a-z0-9-]{1,12}",
        "[a-z0-9]{24}",
        "\\PC{0,20}",
        prop::collection::vec("\\PC{0,12}", 0..3),
        1u32..100,
        0u64..1_000_000,
        any::<bool>(),
    );
    (
        "[A-Za-z0-9]{8,32}",
        currency(),
        any::<i64>(),
        prop::collection::vec(entry, 0..5),
        prop::collection::vec("\\PC{0,10}", 0..3),
        wire_money(),
        any::<bool>(),
    )
        .prop_map(|(id, currency, created, entries, coupons, subtotal, purchased)| {
            let mut cart = ShoppingCart::new(&id, "site", currency, created);
            for (sku, item_id, title, options, quantity, unit, subscription) in entries {
                cart.entries.push(veranda_actors::commerce::cart::CartEntry {
                    sku,
                    item_id,
                    title,
                    options,
                    product_type: "physical".into(),
                    quantity,
                    unit_price_cents: unit,
                    total_cents: unit * u64::from(quantity),
                    subscription,
                    plan_terms: None,
                });
            }
            cart.total_quantity = cart.entries.iter().map(|e| e.quantity).sum();
            cart.coupons = coupons;
            cart.is_purchased = purchased;
            cart.subtotal_amount = Money::new(currency, subtotal.minor()).expect("in range");
            cart.subtotal_cents = subtotal.minor().unsigned_abs();
            cart
        })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime")
}

proptest! {
    #[test]
    fn visitor_cookies_the_server_writes_parse_back(
        id in visitor_id(),
        first in 1u64..,
        previous in 1u64..,
        current in 1u64..,
        count in 1u64..,
    ) {
        let cookie = VisitorCookie { id, first, previous, current, count };
        let text = cookie.to_string();
        prop_assert_eq!(VisitorCookie::parse(&text), Ok(cookie));
        prop_assert_eq!(VisitTimestamp::parse(&current.to_string()), Ok(VisitTimestamp(current)));
    }

    #[test]
    fn a_hit_continues_from_the_cookies_the_last_one_left(
        id in visitor_id(),
        start in 1u64..4_000_000_000_000,
        gaps in prop::collection::vec(0u64..2 * VISIT_LENGTH_MS, 1..8),
    ) {
        let mut now = start;
        let mut out = next_visit(None, None, now, || id.clone());
        prop_assert!(out.recreated);
        for gap in gaps {
            now += gap;
            let (cvr, cvt) = (out.cookie.to_string(), out.timestamp.0.to_string());
            let next = next_visit(Some(&cvr), Some(&cvt), now, || VisitorId::parse("other").expect("valid"));
            prop_assert!(!next.recreated, "{} {} refused", cvr, cvt);
            prop_assert_eq!(&next.cookie.id, &id);
            prop_assert_eq!(next.new_visit, gap >= VISIT_LENGTH_MS);
            let expected = if next.new_visit { out.cookie.count + 1 } else { out.cookie.count };
            prop_assert_eq!(next.cookie.count, expected);
            out = next;
        }
    }

    #[test]
    fn arbitrary_visitor_cookies_that_parse_write_back_the_same(text in "[a-z0-9|_-]{0,40}") {
        if let Ok(cookie) = VisitorCookie::parse(&text) {
            prop_assert_eq!(VisitorCookie::parse(&cookie.to_string()), Ok(cookie));
        }
    }

    #[test]
    fn formatted_money_reads_back_to_the_same_minor_units(
        money in money(),
        grouping in any::<bool>(),
        trim_zero_fractions in any::<bool>(),
    ) {
        let options = FormatOptions { grouping, trim_zero_fractions };
        let text = money.format_with(options);
        prop_assert_eq!(parse_formatted(&text, money.currency(), options), Some(money.minor()), "{}", text);
    }

    #[test]
    fn money_objects_read_back_exactly_below_the_wire_limit(money in wire_money()) {
        let json = serde_json::to_value(money).expect("serialises");
        prop_assert_eq!(serde_json::from_value::<Money>(json.clone()).expect("reads back"), money);
        prop_assert_eq!(format_value(&json), Ok(money.format()));
    }

    #[test]
    fn money_objects_read_back_within_a_doubles_precision_up_to_the_limit(money in money()) {
        let json = serde_json::to_value(money).expect("serialises");
        let back = serde_json::from_value::<Money>(json).expect("every valid amount reads back");
        prop_assert_eq!(back.currency(), money.currency());
        let tolerance = (money.minor().unsigned_abs() >> 50) + 1;
        prop_assert!(back.minor().abs_diff(money.minor()) <= tolerance, "{:?} came back as {:?}", money, back);
    }

    #[test]
    fn stream_frames_read_back(
        epoch in "[0-9a-f]{16}",
        offset in 1u64..,
        at in any::<u64>(),
        text in "\\PC{0,30}",
    ) {
        let event = StoredEvent { epoch, offset, at, data: serde_json::json!({ "name": text, "n": offset }) };
        let stored = serde_json::to_vec(&event).expect("serialises");
        prop_assert_eq!(&serde_json::from_slice::<StoredEvent>(&stored).expect("reads back"), &event);
        let frame = Frame::event(StreamName::Edits, &event);
        prop_assert_eq!(serde_json::from_str::<Frame>(&frame.to_json()).expect("reads back"), frame);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn carts_read_back_from_the_store_as_saved(carts in prop::collection::vec(cart(), 1..4)) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
        let storage = StoreStorage::new(store);
        let rt = runtime();
        for cart in &carts {
            rt.block_on(storage.save_cart(cart)).expect("saved");
        }
        for cart in &carts {
            let expected = carts.iter().rev().find(|c| c.id == cart.id).expect("saved");
            let loaded = storage.load_cart(&cart.id).expect("readable");
            prop_assert_eq!(loaded.as_ref(), Some(expected));
        }
    }

    #[test]
    fn journals_reopen_at_their_head_and_resume_exactly(
        count in 0u64..600,
        seen in 0u64..600,
    ) {
        let dir = tempfile::tempdir().expect("temp dir");
        let limits = StreamLimits { history_events: 1000, ..StreamLimits::default() };
        let now = 1_700_000_000_000;
        let rt = runtime();
        let epoch = {
            let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("opens"));
            let journal = Journal::new(store, StreamName::Edits);
            let mut history = rt.block_on(journal.load(&limits, now)).expect("loads");
            for i in 0..count {
                let (event, _) = history.append(serde_json::json!({ "i": i }), now);
                rt.block_on(journal.append(&event)).expect("appended");
            }
            history.epoch().to_string()
        };
        let store: Arc<dyn Store> = Arc::new(SledStore::open(dir.path()).expect("reopens"));
        let history = rt.block_on(Journal::new(store, StreamName::Edits).load(&limits, now)).expect("loads");
        if count == 0 {
            prop_assert_eq!(history.head(), 0);
            return Ok(());
        }
        prop_assert_eq!(history.epoch(), epoch.as_str());
        prop_assert_eq!(history.head(), count);
        match history.resume(&epoch, seen) {
            Resume::Replay(events) => {
                prop_assert!(seen <= count);
                let offsets: Vec<u64> = events.iter().map(|e| e.offset).collect();
                prop_assert_eq!(offsets, (seen + 1..=count).collect::<Vec<_>>());
                for e in &events {
                    prop_assert_eq!(&e.data, &serde_json::json!({ "i": e.offset - 1 }));
                }
            }
            Resume::Reset(reason) => prop_assert!(seen > count, "reset {:?} at {}", reason, seen),
        }
    }
}
