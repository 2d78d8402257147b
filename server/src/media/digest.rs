//! The content hash of an original (its ETag and the name of its resized variants),
//! computed once per file version instead of on every request: kept per canonical path,
//! length and modification time, so replacing a file gives a new hash. The table holds
//! at most [`MAX_ENTRIES`] files and forgets the least recently used first. Hashing reads
//! the file in pieces on a blocking thread, never whole into memory.

use std::collections::HashMap;
use std::io::Read;
use std::path::PathBuf;
use std::sync::{LazyLock, Mutex};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use super::stream::OpenFile;

/// Files whose hash is remembered, over every site served by the process.
pub const MAX_ENTRIES: usize = 4096;

/// What identifies one version of a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Version {
    path: PathBuf,
    len: u64,
    modified: Option<SystemTime>,
}

/// Hashes by file version, bounded, least recently used forgotten first.
#[derive(Debug)]
pub struct Digests {
    capacity: usize,
    /// Hash and last use (a counter) per version.
    entries: HashMap<Version, (String, u64)>,
    uses: u64,
}

impl Digests {
    /// A table of at most `capacity` files.
    pub fn new(capacity: usize) -> Digests {
        Digests { capacity: capacity.max(1), entries: HashMap::new(), uses: 0 }
    }

    fn get(&mut self, version: &Version) -> Option<String> {
        self.uses += 1;
        let uses = self.uses;
        self.entries.get_mut(version).map(|(hash, used)| {
            *used = uses;
            hash.clone()
        })
    }

    fn insert(&mut self, version: Version, hash: String) {
        self.uses += 1;
        // An older version of the same file is never asked for again.
        self.entries.retain(|v, _| v.path != version.path);
        while self.entries.len() >= self.capacity {
            let Some(oldest) = self.entries.iter().min_by_key(|(_, (_, used))| *used).map(|(v, _)| v.clone()) else {
                break;
            };
            self.entries.remove(&oldest);
        }
        self.entries.insert(version, (hash, self.uses));
    }

    /// How many files are remembered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

static DIGESTS: LazyLock<Mutex<Digests>> = LazyLock::new(|| Mutex::new(Digests::new(MAX_ENTRIES)));

/// The first 16 bytes of the SHA-256 of `file`'s content, in lowercase hex (as
/// [`super::variants::content_hash`] gives for the same bytes).
pub async fn content_hash(file: &OpenFile) -> std::io::Result<String> {
    content_hash_in(&DIGESTS, file).await
}

async fn content_hash_in(table: &Mutex<Digests>, file: &OpenFile) -> std::io::Result<String> {
    let version = Version { path: file.path.clone(), len: file.len, modified: file.modified };
    if let Some(hash) = table.lock().unwrap_or_else(|p| p.into_inner()).get(&version) {
        return Ok(hash);
    }
    let path = file.path.clone();
    let hash = tokio::task::spawn_blocking(move || hash_file(&path)).await.map_err(std::io::Error::other)??;
    table.lock().unwrap_or_else(|p| p.into_inner()).insert(version, hash.clone());
    Ok(hash)
}

fn hash_file(path: &std::path::Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0; super::stream::CHUNK];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn open(dir: &std::path::Path, name: &str) -> OpenFile {
        super::super::stream::open_inside(dir, std::path::Path::new(name)).await.expect("the file")
    }

    #[actix_rt::test]
    async fn the_hash_matches_the_content_and_follows_a_replaced_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let table = Mutex::new(Digests::new(8));
        std::fs::write(dir.path().join("a.png"), b"first").expect("write");
        let first = content_hash_in(&table, &open(dir.path(), "a.png").await).await.expect("hash");
        assert_eq!(first, super::super::variants::content_hash(b"first"));
        std::fs::write(dir.path().join("a.png"), b"second, longer").expect("write");
        let second = content_hash_in(&table, &open(dir.path(), "a.png").await).await.expect("hash");
        assert_eq!(second, super::super::variants::content_hash(b"second, longer"));
        assert_eq!(table.lock().expect("table").len(), 1, "the old version is forgotten");
    }

    #[actix_rt::test]
    async fn the_table_keeps_the_most_recently_used_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let table = Mutex::new(Digests::new(2));
        for name in ["a", "b", "c"] {
            std::fs::write(dir.path().join(name), name).expect("write");
        }
        let (a, b, c) = (open(dir.path(), "a").await, open(dir.path(), "b").await, open(dir.path(), "c").await);
        content_hash_in(&table, &a).await.expect("a");
        content_hash_in(&table, &b).await.expect("b");
        content_hash_in(&table, &a).await.expect("a again");
        content_hash_in(&table, &c).await.expect("c");
        let mut table = table.lock().expect("table");
        assert_eq!(table.len(), 2);
        let version = |f: &OpenFile| Version { path: f.path.clone(), len: f.len, modified: f.modified };
        assert!(table.get(&version(&a)).is_some() && table.get(&version(&c)).is_some());
        assert!(table.get(&version(&b)).is_none(), "b was used least recently");
    }
}
