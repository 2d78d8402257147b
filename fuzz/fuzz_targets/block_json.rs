//! Block data as JSON: what a page carries in `data-block-json` and what the widget
//! route reads back (`value` of `widgetJSON`).
//!
//! Input: a kind byte, then JSON. The JSON is read as that kind's block data (through
//! the same `BlockData::parse` the site loader uses; JSON nulls stand for absent
//! fields, which TOML has no value for). Properties: reading never panics; accepted
//! data serialises, and the serialised JSON (without the `layoutVariant` written from the
//! design) reads back to data that serialises the same. Summary data is also read
//! straight from JSON, as the widget route does.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use veranda_actors::site::blocks::{without_derived_fields, SummaryBlock};
use veranda_actors::site::{BlockData, BlockKind};

/// JSON as TOML: nulls in objects are left out; a null in an array has no TOML form.
fn to_toml(value: &Value) -> Option<toml::Value> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(b) => toml::Value::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64()?),
        },
        Value::String(s) => toml::Value::String(s.clone()),
        Value::Array(items) => toml::Value::Array(items.iter().map(to_toml).collect::<Option<_>>()?),
        Value::Object(map) => toml::Value::Table(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| Some((k.clone(), to_toml(v)?)))
                .collect::<Option<_>>()?,
        ),
    })
}

/// The block data of `kind` in `json`, if it is valid.
fn read(kind: BlockKind, json: &Value) -> Option<BlockData> {
    BlockData::parse(kind, to_toml(json)?).ok()
}

fuzz_target!(|data: &[u8]| {
    let Some((&k, rest)) = data.split_first() else { return };
    let kind = BlockKind::ALL[usize::from(k) % BlockKind::ALL.len()];
    let Ok(json) = serde_json::from_slice::<Value>(rest) else { return };
    if let Some(block) = read(kind, &json) {
        assert_eq!(block.kind(), kind);
        let written = serde_json::to_value(&block).expect("block data serialises");
        // `layoutVariant` is written from the block's design for the page, never read: a
        // site file names the design.
        let fields = without_derived_fields(written.clone());
        let again =
            read(kind, &fields).unwrap_or_else(|| panic!("{} data does not read back: {written}", kind.name()));
        let rewritten = serde_json::to_value(&again).expect("block data serialises");
        assert_eq!(written, rewritten, "{} data changes on a second round", kind.name());
    }
    if kind == BlockKind::Summary {
        if let Ok(summary) = serde_json::from_value::<SummaryBlock>(json) {
            let written = serde_json::to_value(&summary).expect("summary data serialises");
            let again: SummaryBlock = serde_json::from_value(written.clone())
                .unwrap_or_else(|e| panic!("summary data does not read back: {e}: {written}"));
            assert_eq!(written, serde_json::to_value(&again).expect("serialises"));
        }
    }
});
