//! The intent log of [`SledStore`](super::SledStore)'s atomic writes (see its module's
//! notes on why it runs no sled transaction): an atomic write is logged as one value, the
//! encoding below, applied key by key, then removed; opening the store applies any intent
//! a crash left.

use super::{sled_failure, StoreError, Tree};

/// The internal tree of atomic writes in progress; not one of [`Tree::ALL`].
pub(super) const INTENTS_TREE: &str = "veranda-intents";

/// An atomic write as one value: per write, the tree's name, the key and the value, each
/// preceded by its length (u32, big-endian).
pub(super) fn encode_intent(writes: &[(Tree, Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let size: usize = writes.iter().map(|(t, k, v)| 12 + t.name().len() + k.len() + v.len()).sum();
    let mut out = Vec::with_capacity(size);
    for (tree, key, value) in writes {
        for part in [tree.name().as_bytes(), key, value] {
            out.extend_from_slice(&(part.len() as u32).to_be_bytes());
            out.extend_from_slice(part);
        }
    }
    out
}

/// One write of an intent: tree, key, value.
type IntentWrite<'a> = (Tree, &'a [u8], &'a [u8]);

/// The writes of an intent [`encode_intent`] made; `None` if it is not one.
fn decode_intent(mut bytes: &[u8]) -> Option<Vec<IntentWrite<'_>>> {
    fn part<'a>(bytes: &mut &'a [u8]) -> Option<&'a [u8]> {
        let (len, rest) = bytes.split_first_chunk::<4>()?;
        let len = u32::from_be_bytes(*len) as usize;
        let (part, rest) = (rest.get(..len)?, rest.get(len..)?);
        *bytes = rest;
        Some(part)
    }
    let mut writes = Vec::new();
    while !bytes.is_empty() {
        let name = part(&mut bytes)?;
        let tree = Tree::ALL.into_iter().find(|t| t.name().as_bytes() == name)?;
        writes.push((tree, part(&mut bytes)?, part(&mut bytes)?));
    }
    Some(writes)
}

/// Applies every intent a crash left in `intents` to the trees `tree` hands out, then
/// removes it; returns how many there were.
pub(super) fn finish_intents<'t>(
    intents: &sled::Tree,
    tree: impl Fn(Tree) -> Result<&'t sled::Tree, StoreError>,
) -> Result<usize, StoreError> {
    let mut finished = 0;
    for entry in intents.iter() {
        let (id, intent) = entry.map_err(sled_failure)?;
        let writes = decode_intent(&intent).ok_or_else(|| {
            StoreError::Backend(format!("an unfinished atomic write ({} bytes) is unreadable", intent.len()))
        })?;
        for (name, key, value) in writes {
            tree(name)?.insert(key, value).map_err(sled_failure)?;
        }
        intents.remove(id).map_err(sled_failure)?;
        finished += 1;
    }
    Ok(finished)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_intent_decodes_to_its_writes_and_a_damaged_one_to_nothing() {
        let writes = [(Tree::Orders, b"key".to_vec(), b"".to_vec()), (Tree::Carts, b"".to_vec(), b"value".to_vec())];
        let bytes = encode_intent(&writes);
        let decoded = decode_intent(&bytes).expect("decodes");
        assert_eq!(decoded, vec![(Tree::Orders, &b"key"[..], &b""[..]), (Tree::Carts, &b""[..], &b"value"[..])]);
        assert!(decode_intent(&bytes[..bytes.len() - 1]).is_none(), "cut short");
        assert!(decode_intent(&[0, 0, 0, 4, b'n', b'o', b'p', b'e']).is_none(), "an unknown tree");
        assert_eq!(decode_intent(&[]), Some(Vec::new()));
    }
}
