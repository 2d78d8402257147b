//! The on-disk cache of resized images, bounded in total size.
//!
//! One file per variant under the cache folder, named by its key. Writes go to a
//! temporary file that is renamed into place, so a reader never sees half a file.
//! After each write, the oldest-written files are removed until the folder is back
//! under its byte budget. The index of sizes is built from the folder on first use,
//! so the budget holds across restarts. Every method blocks: call it off the async
//! threads.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::SystemTime;

/// One cached file, as the index knows it.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// Its size in bytes.
    bytes: u64,
    /// When it was written; the oldest goes first.
    written: SystemTime,
}

/// Sizes of the cached files and their total.
#[derive(Debug, Default)]
struct Index {
    /// Each file by key.
    entries: HashMap<String, Entry>,
    /// Sum of every entry's size.
    total: u64,
}

/// A folder of cached variants that never holds more than `max_bytes`.
#[derive(Debug)]
pub struct DiskCache {
    /// Where the files live.
    dir: PathBuf,
    /// The byte budget of the folder.
    max_bytes: u64,
    /// Built from the folder on first use.
    index: Mutex<Option<Index>>,
}

/// A cache key is a file name we made: ASCII letters, digits, `-` and `.` only.
fn valid_key(key: &str) -> bool {
    !key.is_empty() && !key.starts_with('.') && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
}

impl DiskCache {
    /// A cache in `dir` (created when first written) holding at most `max_bytes`.
    pub fn new(dir: PathBuf, max_bytes: u64) -> DiskCache {
        DiskCache { dir, max_bytes, index: Mutex::new(None) }
    }

    /// The cached bytes under `key`, if any.
    pub fn get(&self, key: &str) -> io::Result<Option<Vec<u8>>> {
        if !valid_key(key) {
            return Ok(None);
        }
        match fs::read(self.dir.join(key)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Stores `bytes` under `key`, then evicts the oldest files until within budget.
    /// A file larger than the whole budget is not stored.
    pub fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        let size = bytes.len() as u64;
        if !valid_key(key) || size > self.max_bytes {
            return Ok(());
        }
        fs::create_dir_all(&self.dir)?;
        let temporary = self.dir.join(format!(".{key}.{}.tmp", std::process::id()));
        fs::write(&temporary, bytes)?;
        fs::rename(&temporary, self.dir.join(key))?;
        let mut guard = self.index.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let index = match guard.as_mut() {
            Some(index) => index,
            None => guard.insert(self.scan()?),
        };
        if let Some(old) = index.entries.insert(key.to_string(), Entry { bytes: size, written: SystemTime::now() }) {
            index.total -= old.bytes;
        }
        index.total += size;
        self.evict(index, key);
        Ok(())
    }

    /// The total size of the cached files, in bytes.
    pub fn total_bytes(&self) -> io::Result<u64> {
        let mut guard = self.index.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let index = match guard.as_mut() {
            Some(index) => index,
            None => guard.insert(self.scan()?),
        };
        Ok(index.total)
    }

    /// Reads the folder into an index (an absent folder is an empty cache).
    fn scan(&self) -> io::Result<Index> {
        let mut index = Index::default();
        let listing = match fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(index),
            Err(e) => return Err(e),
        };
        for item in listing.flatten() {
            let Ok(name) = item.file_name().into_string() else { continue };
            let Ok(meta) = item.metadata() else { continue };
            if !valid_key(&name) || !meta.is_file() {
                continue;
            }
            let written = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            index.total += meta.len();
            index.entries.insert(name, Entry { bytes: meta.len(), written });
        }
        Ok(index)
    }

    /// Removes the oldest-written files (never `keep`) until the total is within budget.
    fn evict(&self, index: &mut Index, keep: &str) {
        if index.total <= self.max_bytes {
            return;
        }
        let mut by_age: Vec<(SystemTime, String)> = index
            .entries
            .iter()
            .filter(|(key, _)| key.as_str() != keep)
            .map(|(key, entry)| (entry.written, key.clone()))
            .collect();
        by_age.sort();
        for (_, key) in by_age {
            if index.total <= self.max_bytes {
                break;
            }
            // A file already gone still leaves the index; any other failure keeps it counted.
            match fs::remove_file(self.dir.join(&key)) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => {
                    tracing::warn!(error = %e, key, "could not evict a cached image");
                    continue;
                }
            }
            if let Some(entry) = index.entries.remove(&key) {
                index.total -= entry.bytes;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bytes_come_back() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = DiskCache::new(dir.path().join("images"), 1000);
        assert_eq!(cache.get("a-500.png").expect("reads"), None);
        cache.put("a-500.png", b"resized").expect("writes");
        assert_eq!(cache.get("a-500.png").expect("reads").as_deref(), Some(&b"resized"[..]));
    }

    #[test]
    fn the_oldest_files_are_evicted_to_stay_within_budget() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = DiskCache::new(dir.path().to_path_buf(), 250);
        for key in ["one", "two", "three"] {
            cache.put(key, &[0u8; 100]).expect("writes");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(cache.get("one").expect("reads"), None, "the oldest went first");
        assert!(cache.get("two").expect("reads").is_some());
        assert!(cache.get("three").expect("reads").is_some());
        assert_eq!(cache.total_bytes().expect("index"), 200);
    }

    #[test]
    fn the_budget_holds_across_restarts() {
        let dir = tempfile::tempdir().expect("temp dir");
        DiskCache::new(dir.path().to_path_buf(), 250).put("old", &[0u8; 200]).expect("writes");
        let reopened = DiskCache::new(dir.path().to_path_buf(), 250);
        assert_eq!(reopened.total_bytes().expect("index"), 200);
        reopened.put("new", &[0u8; 100]).expect("writes");
        assert_eq!(reopened.get("old").expect("reads"), None);
        assert_eq!(reopened.total_bytes().expect("index"), 100);
    }

    #[test]
    fn oversized_files_and_odd_keys_are_not_stored() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = DiskCache::new(dir.path().to_path_buf(), 10);
        cache.put("big", &[0u8; 11]).expect("skips");
        cache.put("../escape", b"x").expect("skips");
        assert_eq!(cache.get("big").expect("reads"), None);
        assert_eq!(cache.get("../escape").expect("reads"), None);
        assert_eq!(cache.total_bytes().expect("index"), 0);
    }
}
