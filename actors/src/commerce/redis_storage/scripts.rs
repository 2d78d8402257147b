//! The Lua scripts every instance runs against Redis, and how their answers read: the
//! cart compare-and-set, the stock reservation and the checkout commit (see the keys in
//! [`super`]).

use crate::commerce::cart::ShoppingCart;
use crate::commerce::storage::{CartWrite, CommitOutcome, Reservation, VersionedCart};
use crate::store::StoreError;

/// Compare-and-set of a cart. `KEYS[1]` the cart hash, `KEYS[2]` its checkout claim,
/// `ARGV[1]` the version the change was applied to (0: the cart did not exist),
/// `ARGV[2]` the new JSON, `ARGV[3]` `1` for the write of the checkout holding the
/// claim, `ARGV[4]` the cart's lifetime in ms (absent or 0: it is kept; a written open
/// cart expires that long after its last change). Answers `{1, new version, ""}` when written, `{2, 0, ""}` when a checkout
/// holds the cart, else `{0, current version, current JSON}`.
pub const CART_CAS: &str = r"
if ARGV[3] ~= '1' and redis.call('EXISTS', KEYS[2]) == 1 then
  return {2, 0, ''}
end
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then
  return {0, current, redis.call('HGET', KEYS[1], 'd') or ''}
end
current = current + 1
redis.call('HSET', KEYS[1], 'v', current, 'd', ARGV[2])
local lifetime = tonumber(ARGV[4] or '0') or 0
if lifetime > 0 then
  redis.call('PEXPIRE', KEYS[1], lifetime)
else
  redis.call('PERSIST', KEYS[1])
end
return {1, current, ''}
";

/// Takes units of every line or of none. `KEYS` the stock keys (distinct), `ARGV` the
/// units wanted of each. Answers `{1, level after, …}` (one level per key) when taken,
/// else `{0, index of the first short line (1-based), units it has}`. A missing key
/// has no units.
pub const STOCK_RESERVE: &str = r"
for i, key in ipairs(KEYS) do
  local have = tonumber(redis.call('GET', key) or '0')
  if have < tonumber(ARGV[i]) then
    return {0, i, have}
  end
end
local answer = {1}
for i, key in ipairs(KEYS) do
  answer[i + 1] = redis.call('DECRBY', key, ARGV[i])
end
return answer
";

/// Commits a checkout, all or nothing. `KEYS[1]` the cart hash, `KEYS[2]` the order,
/// `KEYS[3]` the order index, `KEYS[4…]` the stock keys (distinct); `ARGV[1]` the cart
/// version the order was made from, `ARGV[2]` the purchased cart's JSON, `ARGV[3]` the
/// order id, `ARGV[4]` the order's JSON, `ARGV[5]` its creation time (the index
/// score), `ARGV[6…]` the units of each stock key. Answers `{code, n, text, levels}`:
/// `{1, new cart version, '', levels after}` when committed; `{3, 0, '', {}}` when this
/// order was committed already; `{4, 0, other order id, {}}` when another order
/// purchased the cart; `{2, current version, '', {}}` when the cart changed since;
/// `{0, index of the first short line (1-based), '', {units it has}}` when a line lacks
/// stock. Nothing is written unless the answer is 1. The purchased cart is kept with
/// its order (its lifetime, if any, is removed).
pub const CHECKOUT_COMMIT: &str = r"
local placed = redis.call('HGET', KEYS[1], 'o')
if placed then
  if placed == ARGV[3] then
    return {3, 0, '', {}}
  end
  return {4, 0, placed, {}}
end
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then
  return {2, current, '', {}}
end
for i = 4, #KEYS do
  local have = tonumber(redis.call('GET', KEYS[i]) or '0')
  if have < tonumber(ARGV[i + 2]) then
    return {0, i - 3, '', {have}}
  end
end
local levels = {}
for i = 4, #KEYS do
  levels[i - 3] = redis.call('DECRBY', KEYS[i], ARGV[i + 2])
end
redis.call('SET', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[3])
redis.call('HSET', KEYS[1], 'v', current + 1, 'd', ARGV[2], 'o', ARGV[3])
redis.call('PERSIST', KEYS[1])
return {1, current + 1, '', levels}
";

/// Settles an order. `KEYS[1]` the order, `ARGV[1]` its settled JSON. Writes it only
/// when the stored order is still unpaid (an order stored without a status is unpaid);
/// answers 1 when written, else 0.
pub const ORDER_SETTLE: &str = r"
local stored = redis.call('GET', KEYS[1])
if not stored then
  return 0
end
local ok, order = pcall(cjson.decode, stored)
if not ok or (order['status'] ~= nil and order['status'] ~= 'unpaid') then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
";

pub(super) fn unavailable(e: impl std::fmt::Display) -> StoreError {
    StoreError::Unavailable(format!("Redis: {e}"))
}

pub(super) fn unreadable(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(format!("a stored {what} record is unreadable: {e}"))
}

pub(super) fn parse_cart(json: &str) -> Result<ShoppingCart, StoreError> {
    serde_json::from_str(json).map_err(|e| unreadable("cart", e))
}

/// The answer of [`CART_CAS`] as a [`CartWrite`].
pub fn cas_outcome(written: i64, version: u64, current: &str) -> Result<CartWrite, StoreError> {
    match written {
        1 => return Ok(CartWrite::Saved(version)),
        2 => return Ok(CartWrite::CheckingOut),
        _ => {}
    }
    if version == 0 || current.is_empty() {
        return Ok(CartWrite::Conflict(None));
    }
    Ok(CartWrite::Conflict(Some(Box::new(VersionedCart { cart: parse_cart(current)?, version }))))
}

/// The answer of [`STOCK_RESERVE`] for `lines` as a [`Reservation`].
pub fn reservation_outcome(lines: &[(String, u32)], answer: &[i64]) -> Result<Reservation, StoreError> {
    let level = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
    match answer {
        [1, levels @ ..] if levels.len() == lines.len() => {
            Ok(Reservation::Reserved(lines.iter().zip(levels).map(|((sku, _), n)| (sku.clone(), level(*n))).collect()))
        }
        [0, index, have] => {
            let sku = usize::try_from(*index - 1).ok().and_then(|i| lines.get(i)).map(|(sku, _)| sku.clone());
            let sku = sku.ok_or_else(|| unavailable("the stock script named no line"))?;
            Ok(Reservation::Short { sku, available: level(*have) })
        }
        _ => Err(unavailable(format!("unexpected answer from the stock script: {answer:?}"))),
    }
}

/// The answer of [`CHECKOUT_COMMIT`] for `lines` as a [`CommitOutcome`].
pub fn commit_outcome(
    lines: &[(String, u32)],
    code: i64,
    n: i64,
    text: String,
    levels: &[i64],
) -> Result<CommitOutcome, StoreError> {
    let level = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
    match code {
        1 if levels.len() == lines.len() => Ok(CommitOutcome::Committed(
            lines.iter().zip(levels).map(|((sku, _), n)| (sku.clone(), level(*n))).collect(),
        )),
        3 => Ok(CommitOutcome::AlreadyCommitted),
        4 => Ok(CommitOutcome::Purchased(text)),
        2 => Ok(CommitOutcome::Stale),
        0 => {
            let sku = usize::try_from(n - 1).ok().and_then(|i| lines.get(i)).map(|(sku, _)| sku.clone());
            let sku = sku.ok_or_else(|| unavailable("the checkout script named no line"))?;
            Ok(CommitOutcome::Short { sku, available: level(levels.first().copied().unwrap_or(0)) })
        }
        _ => Err(unavailable(format!("unexpected answer from the checkout script: {code} {n} {levels:?}"))),
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservation_outcomes() {
        let lines = vec![("A".to_string(), 2), ("B".to_string(), 1)];
        assert_eq!(
            reservation_outcome(&lines, &[1, 3, 0]).unwrap(),
            Reservation::Reserved(vec![("A".into(), 3), ("B".into(), 0)])
        );
        assert_eq!(
            reservation_outcome(&lines, &[0, 2, 0]).unwrap(),
            Reservation::Short { sku: "B".into(), available: 0 }
        );
        assert!(reservation_outcome(&lines, &[0, 9, 0]).is_err());
        assert!(reservation_outcome(&lines, &[1, 3]).is_err());
        assert!(reservation_outcome(&lines, &[]).is_err());
    }

    #[test]
    fn commit_outcomes() {
        let lines = vec![("A".to_string(), 2), ("B".to_string(), 1)];
        let outcome = |code, n, text: &str, levels: &[i64]| commit_outcome(&lines, code, n, text.to_string(), levels);
        assert_eq!(
            outcome(1, 5, "", &[3, 0]).unwrap(),
            CommitOutcome::Committed(vec![("A".into(), 3), ("B".into(), 0)])
        );
        assert_eq!(outcome(3, 0, "", &[]).unwrap(), CommitOutcome::AlreadyCommitted);
        assert_eq!(outcome(4, 0, "o1", &[]).unwrap(), CommitOutcome::Purchased("o1".into()));
        assert_eq!(outcome(2, 7, "", &[]).unwrap(), CommitOutcome::Stale);
        assert_eq!(outcome(0, 2, "", &[0]).unwrap(), CommitOutcome::Short { sku: "B".into(), available: 0 });
        assert!(outcome(0, 3, "", &[0]).is_err(), "no third line");
        assert!(outcome(1, 5, "", &[3]).is_err(), "a level per line");
        assert!(outcome(9, 0, "", &[]).is_err());
    }

    #[test]
    fn cas_outcomes() {
        assert_eq!(cas_outcome(1, 4, "").unwrap(), CartWrite::Saved(4));
        assert_eq!(cas_outcome(2, 0, "").unwrap(), CartWrite::CheckingOut);
        assert_eq!(cas_outcome(0, 0, "").unwrap(), CartWrite::Conflict(None));
        let cart = ShoppingCart::new("c1", "w", Default::default(), 1);
        let json = serde_json::to_string(&cart).unwrap();
        assert_eq!(
            cas_outcome(0, 7, &json).unwrap(),
            CartWrite::Conflict(Some(Box::new(VersionedCart { cart, version: 7 })))
        );
        assert!(cas_outcome(0, 7, "{not json").is_err());
    }
}
