//! The store's shipping options, tax rules and coupons, and the limits on a cart.
//!
//! A store has no rules of its own making: without `commerce.toml` beside `site.toml`
//! it has no shipping options, no tax and no coupons ([`StoreRules::default`]). The
//! file is read and checked field by field by [`StoreRules::load`] (the server at
//! start-up and `veranda check-site` both use it); [`StoreRules::unshipped`] names the
//! physical products such a store could not deliver, which `check-site` refuses.
//!
//! ## `commerce.toml`
//!
//! ```toml
//! [[shipping]]            # the first option is the default
//! id = "standard"         # unique, 1 to 40 characters
//! name = "Standard shipping"
//! costCents = 600         # 0 to 100000000
//!
//! [[taxes]]
//! name = "New York sales tax"
//! country = "US"          # two-letter ISO code
//! region = "NY"           # optional: the whole country when empty
//! rateMilliPercent = 8875 # 8.875 %; at most 100000 (100 %)
//!
//! [[coupons]]
//! code = "PORCH10"        # unique without case, 1 to 40 characters
//! discount = { kind = "percent", amount = 10 }  # or kind = "fixed", amount in cents
//! ```
//!
//! A file that is present but has problems is not replaced by empty rules:
//! every problem is reported (`commerce.toml: field: message`) and the server does not
//! start, as for the other files of the site.

use std::collections::HashSet;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::site::SiteProblem;

/// Most units of one entry.
pub const MAX_ENTRY_QUANTITY: u32 = 1000;
/// Most distinct entries in one cart.
pub const MAX_ENTRIES: usize = 100;
/// Longest coupon code.
pub const MAX_COUPON_LEN: usize = 40;
/// Coupons (valid and invalid) one cart keeps.
pub const MAX_COUPONS: usize = 10;
/// Largest donation, in minor units: the product price limit (spec 000 §5).
pub const MAX_DONATION_CENTS: u64 = 100_000_000;
/// The file beside `site.toml` that may give the store's shipping, tax and coupon rules.
pub const RULES_FILE: &str = "commerce.toml";
/// Longest shipping option id.
pub const MAX_SHIPPING_ID_LEN: usize = 40;
/// Largest tax rate, in thousandths of a percent (100 %).
pub const MAX_TAX_RATE_MILLI_PERCENT: u32 = 100_000;

/// A way to get physical goods to the buyer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ShippingOption {
    /// Stable id, chosen by the buyer.
    pub id: String,
    /// Name shown to the buyer.
    pub name: String,
    /// What it costs, in minor units, whatever the cart holds.
    pub cost_cents: u64,
}

/// A sales tax applied where the order ships.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TaxRule {
    /// Name shown to the buyer, e.g. "New York sales tax".
    pub name: String,
    /// ISO country code it applies in.
    pub country: String,
    /// Region (state) code it applies in; empty for the whole country.
    #[serde(default)]
    pub region: String,
    /// Rate in thousandths of a percent: 8875 is 8.875 %.
    pub rate_milli_percent: u32,
}

impl TaxRule {
    /// Whether the rule applies to goods shipped to `location`.
    pub fn applies_to(&self, location: &ShippingLocation) -> bool {
        self.country.eq_ignore_ascii_case(&location.country)
            && (self.region.is_empty() || self.region.eq_ignore_ascii_case(&location.region))
    }
}

/// What a coupon takes off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "amount")]
pub enum Discount {
    /// A percentage of the subtotal (1 to 100).
    Percent(u32),
    /// A fixed amount in minor units, at most the subtotal.
    Fixed(u64),
}

/// A coupon code the store accepts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Coupon {
    /// The code buyers type (compared without case).
    pub code: String,
    /// What it takes off.
    pub discount: Discount,
}

/// Where the order ships.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShippingLocation {
    /// ISO country code.
    #[serde(default)]
    pub country: String,
    /// Region or state code.
    #[serde(default)]
    pub region: String,
    /// Postal code.
    #[serde(default)]
    pub postal_code: String,
}

/// The store's shipping options, tax rules and coupons; by default none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoreRules {
    /// Shipping options, the first is the default.
    #[serde(default)]
    pub shipping: Vec<ShippingOption>,
    /// Tax rules.
    #[serde(default)]
    pub taxes: Vec<TaxRule>,
    /// Accepted coupons.
    #[serde(default)]
    pub coupons: Vec<Coupon>,
}

impl StoreRules {
    /// Rules from a `commerce.toml` text, without the checks of [`StoreRules::parse`].
    pub fn from_toml(text: &str) -> Result<StoreRules, toml::de::Error> {
        toml::from_str(text)
    }

    /// The rules of the site directory `dir`: its [`RULES_FILE`] read and checked, or
    /// no rules at all (no shipping, tax or coupons) when it has none. Every problem is named with the file and
    /// field.
    pub fn load(dir: &Path) -> Result<StoreRules, Vec<SiteProblem>> {
        match std::fs::read_to_string(dir.join(RULES_FILE)) {
            Ok(text) => StoreRules::parse(&text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(StoreRules::default()),
            Err(e) => Err(vec![problem("", format!("cannot be read: {e}"))]),
        }
    }

    /// Rules from a `commerce.toml` text, every field checked; each problem names
    /// [`RULES_FILE`] and the field (e.g. `coupons[1].discount`).
    pub fn parse(text: &str) -> Result<StoreRules, Vec<SiteProblem>> {
        let table: toml::Table = text.parse().map_err(|e| vec![problem("", syntax_message(&e, text))])?;
        let mut problems = Vec::new();
        let mut rules = StoreRules::default();
        for (key, value) in table {
            match key.as_str() {
                "shipping" => rules.shipping = list(&key, value, &["id", "name", "costCents"], &mut problems),
                "taxes" => {
                    let fields = ["name", "country", "region", "rateMilliPercent"];
                    rules.taxes = list(&key, value, &fields, &mut problems);
                }
                "coupons" => rules.coupons = list(&key, value, &["code", "discount"], &mut problems),
                _ => problems.push(problem(&key, "is not a known field (expected shipping, taxes, coupons)")),
            }
        }
        rules.check(&mut problems);
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(problems)
        }
    }

    /// The rules' own limits: ids and codes unique and not too long, names given,
    /// amounts and rates in range.
    fn check(&self, problems: &mut Vec<SiteProblem>) {
        let mut ids = HashSet::new();
        for (i, option) in self.shipping.iter().enumerate() {
            let at = |field: &str| format!("shipping[{i}].{field}");
            let id_len = option.id.chars().count();
            if id_len == 0 || id_len > MAX_SHIPPING_ID_LEN {
                problems.push(problem(&at("id"), format!("should be 1 to {MAX_SHIPPING_ID_LEN} characters")));
            } else if !ids.insert(option.id.as_str()) {
                problems.push(problem(&at("id"), format!("'{}' is the id of an earlier option", option.id)));
            }
            if option.name.trim().is_empty() {
                problems.push(problem(&at("name"), "is required"));
            }
            if option.cost_cents > MAX_DONATION_CENTS {
                problems.push(problem(&at("costCents"), format!("should be at most {MAX_DONATION_CENTS}")));
            }
        }
        for (i, tax) in self.taxes.iter().enumerate() {
            let at = |field: &str| format!("taxes[{i}].{field}");
            if tax.name.trim().is_empty() {
                problems.push(problem(&at("name"), "is required"));
            }
            if tax.country.len() != 2 || !tax.country.chars().all(|c| c.is_ascii_alphabetic()) {
                problems.push(problem(&at("country"), "should be a two-letter country code, e.g. US"));
            }
            if tax.rate_milli_percent > MAX_TAX_RATE_MILLI_PERCENT {
                let text = format!("should be at most {MAX_TAX_RATE_MILLI_PERCENT} (100 %)");
                problems.push(problem(&at("rateMilliPercent"), text));
            }
        }
        let mut codes = HashSet::new();
        for (i, coupon) in self.coupons.iter().enumerate() {
            let at = |field: &str| format!("coupons[{i}].{field}");
            let code_len = coupon.code.trim().chars().count();
            if code_len == 0 || code_len > MAX_COUPON_LEN || code_len != coupon.code.chars().count() {
                let text = format!("should be 1 to {MAX_COUPON_LEN} characters, without spaces around them");
                problems.push(problem(&at("code"), text));
            } else if !codes.insert(coupon.code.to_lowercase()) {
                problems.push(problem(&at("code"), format!("'{}' is the code of an earlier coupon", coupon.code)));
            }
            match coupon.discount {
                Discount::Percent(p) if p == 0 || p > 100 => {
                    problems.push(problem(&at("discount.amount"), "should be a percentage from 1 to 100"));
                }
                Discount::Fixed(c) if c == 0 || c > MAX_DONATION_CENTS => {
                    let text = format!("should be an amount in cents from 1 to {MAX_DONATION_CENTS}");
                    problems.push(problem(&at("discount.amount"), text));
                }
                _ => {}
            }
        }
    }

    /// A problem of [`RULES_FILE`]'s `shipping` for each physical product of `site`
    /// when these rules offer no way to ship it.
    pub fn unshipped(&self, site: &crate::site::Site) -> Vec<SiteProblem> {
        if !self.shipping.is_empty() {
            return Vec::new();
        }
        let items = site.collections.iter().flat_map(|c| c.items.iter().map(move |i| (c, i)));
        items
            .filter(|(_, i)| i.product.as_ref().is_some_and(|p| crate::commerce::product::ships(p.product_type)))
            .map(|(c, i)| {
                let text = format!(
                    "has no option, but '{}' (collections/{}) is a physical product to ship; add a [[shipping]] option",
                    i.title, c.name
                );
                problem("shipping", text)
            })
            .collect()
    }

    /// The coupon with `code`, compared without case.
    pub fn coupon(&self, code: &str) -> Option<&Coupon> {
        self.coupons.iter().find(|c| c.code.eq_ignore_ascii_case(code.trim()))
    }

    /// The shipping option with `id`.
    pub fn shipping_option(&self, id: &str) -> Option<&ShippingOption> {
        self.shipping.iter().find(|o| o.id == id)
    }
}

/// A problem of [`RULES_FILE`] at `field`.
fn problem(field: &str, message: impl Into<String>) -> SiteProblem {
    SiteProblem { file: RULES_FILE.to_string(), field: field.to_string(), message: message.into() }
}

/// The entries of the list `key`, each a table of `fields` read as `T`; every bad
/// entry is a problem and left out.
fn list<T: DeserializeOwned>(
    key: &str,
    value: toml::Value,
    fields: &[&str],
    problems: &mut Vec<SiteProblem>,
) -> Vec<T> {
    let toml::Value::Array(entries) = value else {
        problems.push(problem(key, format!("should be a list of tables ([[{key}]])")));
        return Vec::new();
    };
    let mut read = Vec::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let at = format!("{key}[{i}]");
        let Some(table) = entry.as_table() else {
            problems.push(problem(&at, "should be a table"));
            continue;
        };
        let unknown: Vec<String> = table.keys().filter(|k| !fields.contains(&k.as_str())).cloned().collect();
        for field in &unknown {
            let text = format!("is not a known field (expected {})", fields.join(", "));
            problems.push(problem(&format!("{at}.{field}"), text));
        }
        match entry.try_into::<T>() {
            Ok(value) if unknown.is_empty() => read.push(value),
            Ok(_) => {}
            Err(e) => {
                let (field, message) = describe(&e, &at);
                problems.push(problem(&field, message));
            }
        }
    }
    read
}

/// The field path and an owner-readable message of a deserialisation error of the
/// value at `prefix`.
fn describe(error: &toml::de::Error, prefix: &str) -> (String, String) {
    let display = error.to_string();
    let keys = display.rsplit_once("\nin `").and_then(|(_, rest)| rest.trim_end().strip_suffix('`')).unwrap_or("");
    let path = if keys.is_empty() { prefix.to_string() } else { format!("{prefix}.{keys}") };
    let message = error.message().trim();
    let quoted = |start: &str| {
        let from = message.find(start)? + start.len();
        message[from..].find('`').map(|len| &message[from..from + len])
    };
    if let Some(field) = quoted("missing field `") {
        return (format!("{path}.{field}"), "is required".into());
    }
    if let Some(variant) = quoted("unknown variant `") {
        let expected = message.split_once(", expected ").map(|(_, e)| e.replace('`', "")).unwrap_or_default();
        return (path, format!("'{variant}' is not allowed here (expected {expected})"));
    }
    if let Some((found, expected)) = message.strip_prefix("invalid type: ").and_then(|r| r.split_once(", expected ")) {
        let expected = match expected {
            "u32" | "u64" => "a whole number",
            other => other,
        };
        return (path, format!("should be {expected}, not {found}"));
    }
    (path, message.to_string())
}

/// A syntax error of the whole file, with its line and column.
fn syntax_message(error: &toml::de::Error, text: &str) -> String {
    match error.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
            format!("TOML syntax error at line {line}, column {column}: {}", error.message().trim())
        }
        None => format!("TOML syntax error: {}", error.message().trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Vec<String> {
        let problems = StoreRules::parse(text).expect_err("refused");
        assert!(problems.iter().all(|p| p.file == RULES_FILE), "{problems:?}");
        problems.iter().map(|p| p.field.clone()).collect()
    }

    #[test]
    fn a_good_file_reads_every_rule() {
        let text = r#"
[[shipping]]
id = "standard"
name = "Standard"
costCents = 600

[[taxes]]
name = "NY"
country = "US"
region = "NY"
rateMilliPercent = 8875

[[coupons]]
code = "TEN"
discount = { kind = "percent", amount = 10 }

[[coupons]]
code = "FIVE"
discount = { kind = "fixed", amount = 500 }
"#;
        let rules = StoreRules::parse(text).expect("reads");
        assert_eq!(rules.shipping[0].cost_cents, 600);
        assert_eq!(rules.taxes[0].rate_milli_percent, 8875);
        assert_eq!(rules.coupons[1].discount, Discount::Fixed(500));
        assert_eq!(
            StoreRules::parse("").expect("an empty file has no rules"),
            StoreRules { shipping: vec![], taxes: vec![], coupons: vec![] }
        );
    }

    #[test]
    fn every_bad_field_is_named() {
        assert_eq!(fields("[[shipping]]\nid = \"a\"\nname = \"A\"\ncostCents = \"six\"\n"), ["shipping[0].costCents"]);
        assert_eq!(fields("[[shipping]]\nid = \"a\"\ncostCents = 1\n"), ["shipping[0].name"]);
        assert_eq!(
            fields("[[shipping]]\nid = \"a\"\nname = \"A\"\ncostCents = 1\ncolour = 2\n"),
            ["shipping[0].colour"]
        );
        assert_eq!(fields("shiping = []\n"), ["shiping"]);
        assert_eq!(fields("coupons = 3\n"), ["coupons"]);
        assert_eq!(
            fields("[[coupons]]\ncode = \"X\"\ndiscount = { kind = \"percent\", amount = 150 }\n"),
            ["coupons[0].discount.amount"]
        );
        assert_eq!(
            fields("[[coupons]]\ncode = \"X\"\ndiscount = { kind = \"half\", amount = 1 }\n"),
            ["coupons[0].discount.kind"]
        );
        assert_eq!(
            fields("[[coupons]]\ncode = \"X\"\ndiscount = { kind = \"fixed\", amount = 1 }\n[[coupons]]\ncode = \"x\"\ndiscount = { kind = \"fixed\", amount = 1 }\n"),
            ["coupons[1].code"]
        );
        assert_eq!(
            fields("[[taxes]]\nname = \"T\"\ncountry = \"USA\"\nrateMilliPercent = 200000\n"),
            ["taxes[0].country", "taxes[0].rateMilliPercent"]
        );
        let syntax = StoreRules::parse("[[shipping]\n").expect_err("refused");
        assert!(syntax[0].message.contains("line 1"), "{syntax:?}");
    }

    #[test]
    fn a_missing_file_gives_no_shipping_no_tax_and_no_coupons() {
        let dir = tempfile::tempdir().expect("a dir");
        let rules = StoreRules::load(dir.path()).expect("reads");
        assert!(rules.shipping.is_empty() && rules.taxes.is_empty() && rules.coupons.is_empty(), "{rules:?}");
        assert!(rules.coupon("PORCH10").is_none());
        std::fs::write(dir.path().join(RULES_FILE), "[[taxes]]\nname = \"T\"\n").expect("writes");
        let problems = StoreRules::load(dir.path()).expect_err("refused");
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert!(fields.contains(&"taxes[0].country"), "{problems:?}");
    }
}
