//! Serving one rung of the ladder for one original: from the disk cache when it is
//! there, else resized once and cached.
//!
//! Keys and ETags come from the SHA-256 of the original's bytes, so replacing an
//! original gives new variants and a new ETag without any invalidation step. Resizing
//! happens on blocking threads, at most [`max_concurrent_resizes`] at a time in the
//! process, and one request resizes a variant while others asking for it wait for
//! the cached file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};

use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use super::cache::DiskCache;
use super::resize::{self, Output, ResizeError};

/// Byte budget of the resized-image cache under the data dir (512 MiB).
pub const CACHE_MAX_BYTES: u64 = 512 * 1024 * 1024;

/// The cache folder's name inside the data dir.
pub const CACHE_FOLDER: &str = "image-cache";

/// How many resizes run at once in the process: one per core.
pub fn max_concurrent_resizes() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
}

/// Bounds CPU work across every cache in the process.
static RESIZE_PERMITS: LazyLock<Semaphore> = LazyLock::new(|| Semaphore::new(max_concurrent_resizes()));

/// One cache per data dir, shared by every request of the servers using it.
static BY_DATA_DIR: LazyLock<Mutex<HashMap<PathBuf, Arc<ImageVariants>>>> = LazyLock::new(Default::default);

/// What the route sends back.
#[derive(Debug)]
pub struct Variant {
    /// The image bytes: resized, or the original when it is no wider than asked.
    pub bytes: Vec<u8>,
    /// Their content type when resized; `None` means the original's own type.
    pub content_type: Option<&'static str>,
    /// A strong ETag (quoted), derived from the original's content and the width.
    pub etag: String,
}

/// Why a variant could not be served.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The original could not be resized.
    #[error(transparent)]
    Resize(#[from] ResizeError),
    /// The cache folder could not be read or written, or a blocking task failed.
    #[error("The resized image could not be stored.")]
    Storage,
}

/// Resized variants of a site's images, cached in one folder.
#[derive(Debug)]
pub struct ImageVariants {
    /// The resized files.
    cache: DiskCache,
    /// One lock per variant being made, so it is made once.
    in_flight: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The content hash that names an original's variants.
pub fn content_hash(original: &[u8]) -> String {
    hex(&Sha256::digest(original)[..16])
}

/// The strong ETag of an original served unchanged.
pub fn original_etag(original: &[u8]) -> String {
    format!("\"{}\"", content_hash(original))
}

/// Runs blocking work off the async threads.
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, VariantError> {
    tokio::task::spawn_blocking(work).await.map_err(|_| VariantError::Storage)
}

impl ImageVariants {
    /// Variants cached in `dir`, holding at most `max_bytes`.
    pub fn new(dir: PathBuf, max_bytes: u64) -> ImageVariants {
        ImageVariants { cache: DiskCache::new(dir, max_bytes), in_flight: Mutex::new(HashMap::new()) }
    }

    /// The process-wide variants of `data_dir` (cached in its [`CACHE_FOLDER`]).
    pub fn for_data_dir(data_dir: &Path) -> Arc<ImageVariants> {
        let mut all = BY_DATA_DIR.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        all.entry(data_dir.to_path_buf())
            .or_insert_with(|| Arc::new(ImageVariants::new(data_dir.join(CACHE_FOLDER), CACHE_MAX_BYTES)))
            .clone()
    }

    /// The variant of `original` at `width` pixels wide.
    pub async fn variant(self: &Arc<Self>, original: Arc<Vec<u8>>, width: u32) -> Result<Variant, VariantError> {
        let hashed = original.clone();
        let hash = blocking(move || content_hash(&hashed)).await?;
        self.variant_named(&hash, width, || async move { Ok(original) }).await
    }

    /// The variant at `width` pixels wide of the original at `path`, whose [`content_hash`]
    /// is `hash`: the original is read only when the variant is not cached yet.
    pub async fn variant_of_file(
        self: &Arc<Self>,
        hash: &str,
        path: PathBuf,
        width: u32,
    ) -> Result<Variant, VariantError> {
        self.variant_named(hash, width, || async move {
            tokio::fs::read(&path).await.map(Arc::new).map_err(|_| VariantError::Storage)
        })
        .await
    }

    async fn variant_named<F, Fut>(self: &Arc<Self>, hash: &str, width: u32, load: F) -> Result<Variant, VariantError>
    where
        F: FnOnce() -> Fut,
        Fut: std::future::Future<Output = Result<Arc<Vec<u8>>, VariantError>>,
    {
        let key = format!("{hash}-{width}");
        let etag = format!("\"{key}\"");
        if let Some(variant) = self.cached(&key, &etag).await? {
            return Ok(variant);
        }
        let lock = {
            let mut in_flight = self.in_flight.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            in_flight.entry(key.clone()).or_default().clone()
        };
        let made = {
            let _making = lock.lock().await;
            match self.cached(&key, &etag).await? {
                Some(variant) => Ok(variant),
                None => match load().await {
                    Ok(original) => self.make(original, width, &key, etag).await,
                    Err(e) => Err(e),
                },
            }
        };
        self.in_flight.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(&key);
        made
    }

    /// The variant under `key` from the disk cache.
    async fn cached(self: &Arc<Self>, key: &str, etag: &str) -> Result<Option<Variant>, VariantError> {
        let this = self.clone();
        let name = key.to_string();
        let found = blocking(move || this.cache.get(&format!("{name}.img"))).await?.map_err(|e| {
            tracing::warn!(error = %e, "could not read the image cache");
            VariantError::Storage
        })?;
        Ok(found.and_then(|stored| decode_stored(stored, etag)))
    }

    /// Resizes `original` (waiting for a permit) and caches the result.
    async fn make(
        self: &Arc<Self>,
        original: Arc<Vec<u8>>,
        width: u32,
        key: &str,
        etag: String,
    ) -> Result<Variant, VariantError> {
        let _permit = RESIZE_PERMITS.acquire().await.map_err(|_| VariantError::Storage)?;
        let this = self.clone();
        let name = format!("{key}.img");
        blocking(move || {
            let (content_type, bytes) = match resize::resize(&original, width)? {
                Output::Resized { bytes, content_type } => (Some(content_type), bytes),
                Output::Original => (None, original.to_vec()),
            };
            // A variant that is the original is cached too: the header check is then skipped.
            if let Err(e) = this.cache.put(&name, &encode_stored(content_type, &bytes)) {
                tracing::warn!(error = %e, "could not write the image cache");
            }
            Ok(Variant { bytes, content_type, etag })
        })
        .await?
    }
}

/// A cached file: its content type (empty for the original's own) on the first line, then the bytes.
fn encode_stored(content_type: Option<&str>, bytes: &[u8]) -> Vec<u8> {
    let mut stored = Vec::with_capacity(bytes.len() + 16);
    stored.extend_from_slice(content_type.unwrap_or("").as_bytes());
    stored.push(b'\n');
    stored.extend_from_slice(bytes);
    stored
}

/// Reads back what [`encode_stored`] wrote; anything else is treated as a miss.
fn decode_stored(mut stored: Vec<u8>, etag: &str) -> Option<Variant> {
    let newline = stored.iter().take(32).position(|b| *b == b'\n')?;
    let content_type = match &stored[..newline] {
        b"" => None,
        b"image/png" => Some("image/png"),
        b"image/jpeg" => Some("image/jpeg"),
        b"image/webp" => Some("image/webp"),
        _ => return None,
    };
    let bytes = stored.split_off(newline + 1);
    Some(Variant { bytes, content_type, etag: etag.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_variants_read_back_with_their_type() {
        let stored = encode_stored(Some("image/jpeg"), b"\xff\xd8jpeg");
        let variant = decode_stored(stored, "\"k\"").expect("reads back");
        assert_eq!(variant.content_type, Some("image/jpeg"));
        assert_eq!(variant.bytes, b"\xff\xd8jpeg");
        let original = decode_stored(encode_stored(None, b"png"), "\"k\"").expect("reads back");
        assert_eq!(original.content_type, None);
        assert!(decode_stored(b"text/html\n<script>".to_vec(), "\"k\"").is_none());
        assert!(decode_stored(b"no newline".to_vec(), "\"k\"").is_none());
    }

    #[tokio::test]
    async fn a_variant_is_made_once_and_then_read_from_the_cache() {
        let dir = tempfile::tempdir().expect("temp dir");
        let variants = Arc::new(ImageVariants::new(dir.path().to_path_buf(), CACHE_MAX_BYTES));
        let mut png = std::io::Cursor::new(Vec::new());
        image::RgbImage::new(600, 400).write_to(&mut png, image::ImageFormat::Png).expect("encodes");
        let original = Arc::new(png.into_inner());
        let first = variants.variant(original.clone(), 300).await.expect("resizes");
        assert_eq!(first.content_type, Some("image/png"));
        let files = std::fs::read_dir(dir.path()).expect("cache folder").count();
        assert_eq!(files, 1);
        let second = variants.variant(original, 300).await.expect("cached");
        assert_eq!(second.bytes, first.bytes);
        assert_eq!(second.etag, first.etag);
    }
}
