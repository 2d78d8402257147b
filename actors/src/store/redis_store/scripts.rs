//! The Redis keys of each tree and the two Lua scripts every change and every scan runs
//! (see the layout in [`super`]).

use super::super::sizes::TreeSizes;
use super::super::Tree;

/// Applies changes to one or more trees in one step (a script runs whole or not at all,
/// so a crash never leaves a key set and its value hash apart). `KEYS`, three per
/// change: the tree's key set, its value hash and its byte count. `ARGV`, four per
/// change: `p` (put) or `d` (delete), `1` when the tree's bytes are counted, the key,
/// the value (empty for a delete). A counted tree's byte count moves by the bytes
/// added less the bytes replaced or removed, never below zero. Answers the number of
/// changes applied.
pub const APPLY: &str = r"
local n = #ARGV / 4
for i = 0, n - 1 do
  local set, values, bytes = KEYS[3 * i + 1], KEYS[3 * i + 2], KEYS[3 * i + 3]
  local op, counted, key, value = ARGV[4 * i + 1], ARGV[4 * i + 2], ARGV[4 * i + 3], ARGV[4 * i + 4]
  local delta = 0
  if counted == '1' and redis.call('HEXISTS', values, key) == 1 then
    delta = -(#key + redis.call('HSTRLEN', values, key))
  end
  if op == 'p' then
    redis.call('ZADD', set, 0, key)
    redis.call('HSET', values, key, value)
    delta = delta + #key + #value
  else
    redis.call('ZREM', set, key)
    redis.call('HDEL', values, key)
  end
  if delta ~= 0 then
    local now = (tonumber(redis.call('GET', bytes) or '0') or 0) + delta
    if now < 0 then
      now = 0
    end
    redis.call('SET', bytes, string.format('%d', now))
  end
end
return n
";

/// Writes a value unless the key has one. `KEYS[1]` the key set, `KEYS[2]` the value
/// hash; `ARGV[1]` the key, `ARGV[2]` the value. Answers the value stored now (this one,
/// or the one stored first). Only for durable trees (their bytes are not counted).
pub const PUT_IF_ABSENT: &str = r"
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 1 then
  redis.call('ZADD', KEYS[1], 0, ARGV[1])
end
return redis.call('HGET', KEYS[2], ARGV[1])
";

/// Writes a value only if the key holds the expected one. `KEYS[1]` the key set,
/// `KEYS[2]` the value hash; `ARGV[1]` the key, `ARGV[2]` `1` when a value is expected
/// (`0`: none), `ARGV[3]` that value, `ARGV[4]` the new value. Answers `{1, 0, ''}` when
/// written, else `{0, 1, current}` or `{0, 0, ''}` (no value). Only for durable trees
/// (their bytes are not counted).
pub const COMPARE_AND_SWAP: &str = r"
local current = redis.call('HGET', KEYS[2], ARGV[1])
local matches
if ARGV[2] == '1' then
  matches = current == ARGV[3]
else
  matches = not current
end
if matches then
  redis.call('ZADD', KEYS[1], 0, ARGV[1])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
  return {1, 0, ''}
end
if current then
  return {0, 1, current}
end
return {0, 0, ''}
";

/// Reads a range of one tree in key order. `KEYS[1]` the key set, `KEYS[2]` the value
/// hash; `ARGV[1]` and `ARGV[2]` the bounds in `ZRANGEBYLEX` form, `ARGV[3]` the most
/// entries. Answers key, value, key, value… (one script, so no key is listed without its
/// value).
pub const SCAN: &str = r"
local keys = redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2], 'LIMIT', 0, ARGV[3])
local out = {}
for _, key in ipairs(keys) do
  local value = redis.call('HGET', KEYS[2], key)
  if value then
    out[#out + 1] = key
    out[#out + 1] = value
  end
end
return out
";

/// The Redis keys of one tree under a prefix.
#[derive(Debug, Clone)]
pub struct TreeKeys {
    /// The sorted set of the tree's keys, every one at score 0 (so in byte order).
    pub set: String,
    /// The hash of the tree's values by key.
    pub values: String,
    /// The bytes the tree holds (telemetry trees only).
    pub bytes: String,
}

impl TreeKeys {
    /// The keys of `tree` under `prefix`.
    pub fn of(prefix: &str, tree: Tree) -> TreeKeys {
        let base = format!("{prefix}store:{}", tree.name());
        TreeKeys { set: format!("{base}:keys"), values: format!("{base}:values"), bytes: format!("{base}:bytes") }
    }
}

/// One change, as [`APPLY`] takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The tree changed.
    pub tree: Tree,
    /// The key.
    pub key: Vec<u8>,
    /// The new value; `None` removes the key.
    pub value: Option<Vec<u8>>,
}

/// An [`APPLY`] invocation of `changes` with the keys of `keys` (one per tree, by
/// [`Tree::ALL`]'s order).
pub fn apply_invocation<'a>(
    script: &'a redis::Script,
    keys: &[TreeKeys],
    changes: &[Change],
) -> redis::ScriptInvocation<'a> {
    let mut invocation = script.prepare_invoke();
    for change in changes {
        let tree = &keys[slot(change.tree)];
        invocation.key(&tree.set).key(&tree.values).key(&tree.bytes);
        let counted = if TreeSizes::counts(change.tree) { "1" } else { "0" };
        match &change.value {
            Some(value) => invocation.arg("p").arg(counted).arg(change.key.as_slice()).arg(value.as_slice()),
            None => invocation.arg("d").arg(counted).arg(change.key.as_slice()).arg(""),
        };
    }
    invocation
}

/// A tree's place in [`Tree::ALL`].
pub fn slot(tree: Tree) -> usize {
    Tree::ALL.iter().position(|t| *t == tree).unwrap_or(0)
}

/// The `ZRANGEBYLEX` bounds of `start <= key < end` (no upper bound for `None`).
pub fn lex_bounds(start: &[u8], end: Option<&[u8]>) -> (Vec<u8>, Vec<u8>) {
    let min = if start.is_empty() { b"-".to_vec() } else { [b"[".as_slice(), start].concat() };
    let max = match end {
        Some(end) => [b"(".as_slice(), end].concat(),
        None => b"+".to_vec(),
    };
    (min, max)
}

/// The pairs of a [`SCAN`] answer.
pub fn pairs(flat: Vec<Vec<u8>>) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut entries = Vec::with_capacity(flat.len() / 2);
    let mut items = flat.into_iter();
    while let (Some(key), Some(value)) = (items.next(), items.next()) {
        entries.push((key, value));
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_half_open() {
        assert_eq!(lex_bounds(b"", None), (b"-".to_vec(), b"+".to_vec()));
        assert_eq!(lex_bounds(b"a", Some(b"b")), (b"[a".to_vec(), b"(b".to_vec()));
    }

    #[test]
    fn each_tree_has_its_own_keys_under_the_prefix() {
        let keys = TreeKeys::of("site1:", Tree::Census);
        assert_eq!(
            (keys.set.as_str(), keys.values.as_str(), keys.bytes.as_str()),
            ("site1:store:census:keys", "site1:store:census:values", "site1:store:census:bytes")
        );
    }
}
