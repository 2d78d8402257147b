//! Decoding, resizing and re-encoding one image. Everything here is blocking and
//! CPU-bound: callers run it on a blocking thread.
//!
//! Decoding runs under limits ([`MAX_SIDE`], [`MAX_ALLOC`]) so a file that claims huge
//! dimensions, or decompresses into more memory than allowed, is refused before the
//! pixels are allocated. Images are never enlarged: when the original is no wider than
//! the width asked for, the original bytes are served unchanged.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// The widest or tallest original that is resized, in pixels.
pub const MAX_SIDE: u32 = 12_000;

/// The most memory one decode may allocate, in bytes.
pub const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// JPEG quality of resized JPEGs.
const JPEG_QUALITY: u8 = 82;

/// Why an image could not be resized.
#[derive(Debug, thiserror::Error)]
pub enum ResizeError {
    /// The bytes are not a complete image in a format we resize.
    #[error("The image could not be decoded.")]
    Undecodable,
    /// The image is wider or taller than [`MAX_SIDE`], or needs more memory than [`MAX_ALLOC`].
    #[error("The image is too large to resize (at most {MAX_SIDE} pixels on a side).")]
    TooLarge,
    /// Encoding the resized image failed.
    #[error("The resized image could not be encoded.")]
    Encode,
}

/// A resized image, or the original when it is no wider than the width asked for.
#[derive(Debug)]
pub enum Output {
    /// Re-encoded at the new width, with its content type.
    Resized { bytes: Vec<u8>, content_type: &'static str },
    /// The original is already narrow enough: serve it as is.
    Original,
}

/// The formats we decode and re-encode; everything else (SVG, GIF) is served as uploaded.
pub fn resizable(format: ImageFormat) -> bool {
    matches!(format, ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP)
}

/// The content type of a resized image of `format`.
fn content_type(format: ImageFormat) -> &'static str {
    match format {
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::WebP => "image/webp",
        _ => "image/png",
    }
}

/// Decoding limits for originals.
fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    limits
}

/// Opens `original` with its format guessed from the bytes and the limits set.
fn reader(original: &[u8]) -> Result<ImageReader<Cursor<&[u8]>>, ResizeError> {
    let mut reader =
        ImageReader::new(Cursor::new(original)).with_guessed_format().map_err(|_| ResizeError::Undecodable)?;
    reader.limits(limits());
    Ok(reader)
}

/// Maps a decoding error: limits give [`ResizeError::TooLarge`], anything else undecodable.
fn decode_error(error: image::ImageError) -> ResizeError {
    match error {
        image::ImageError::Limits(_) => ResizeError::TooLarge,
        _ => ResizeError::Undecodable,
    }
}

/// Resizes `original` to `width` pixels wide, keeping its aspect ratio.
pub fn resize(original: &[u8], width: u32) -> Result<Output, ResizeError> {
    let format = reader(original)?.format().filter(|f| resizable(*f)).ok_or(ResizeError::Undecodable)?;
    let (w, h) = reader(original)?.into_dimensions().map_err(decode_error)?;
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(ResizeError::TooLarge);
    }
    if w <= width {
        return Ok(Output::Original);
    }
    let image = reader(original)?.decode().map_err(decode_error)?;
    // Height follows the aspect ratio, rounded, at least one pixel.
    let height = ((u64::from(h) * u64::from(width) + u64::from(w) / 2) / u64::from(w)).max(1) as u32;
    let resized = image.resize_exact(width, height, FilterType::CatmullRom);
    Ok(Output::Resized { bytes: encode(resized, format)?, content_type: content_type(format) })
}

/// Encodes `image` in `format` (JPEG at [`JPEG_QUALITY`], PNG and lossless WebP otherwise).
fn encode(image: DynamicImage, format: ImageFormat) -> Result<Vec<u8>, ResizeError> {
    let mut out = Cursor::new(Vec::new());
    match format {
        ImageFormat::Jpeg => {
            let rgb = DynamicImage::ImageRgb8(image.into_rgb8());
            rgb.write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
        }
        ImageFormat::WebP => DynamicImage::ImageRgba8(image.into_rgba8()).write_to(&mut out, ImageFormat::WebP),
        _ => image.write_to(&mut out, ImageFormat::Png),
    }
    .map_err(|_| ResizeError::Encode)?;
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([x as u8, y as u8, 90]));
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).expect("encodes");
        out.into_inner()
    }

    fn dimensions(bytes: &[u8]) -> (u32, u32) {
        let image = image::load_from_memory(bytes).expect("decodes");
        (image.width(), image.height())
    }

    /// CRC-32 of a PNG chunk (type and data), so a forged header is otherwise valid.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = 0xFFFF_FFFFu32;
        for byte in bytes {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    /// A PNG whose header claims `side` x `side` pixels, with no pixel data behind it.
    pub(crate) fn forged_png(side: u32) -> Vec<u8> {
        let mut bytes = png(1, 1);
        bytes[16..20].copy_from_slice(&side.to_be_bytes());
        bytes[20..24].copy_from_slice(&side.to_be_bytes());
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        bytes
    }

    #[test]
    fn a_wide_image_is_resized_keeping_its_ratio() {
        let Output::Resized { bytes, content_type } = resize(&png(1200, 800), 300).expect("resizes") else {
            panic!("expected a resized image");
        };
        assert_eq!(content_type, "image/png");
        assert_eq!(dimensions(&bytes), (300, 200));
    }

    #[test]
    fn jpeg_stays_jpeg() {
        let mut out = Cursor::new(Vec::new());
        image::RgbImage::new(800, 600).write_to(&mut out, ImageFormat::Jpeg).expect("encodes");
        let Output::Resized { bytes, content_type } = resize(out.get_ref(), 100).expect("resizes") else {
            panic!("expected a resized image");
        };
        assert_eq!(content_type, "image/jpeg");
        assert_eq!(dimensions(&bytes), (100, 75));
    }

    #[test]
    fn an_image_is_never_enlarged() {
        assert!(matches!(resize(&png(480, 320), 500), Ok(Output::Original)));
        assert!(matches!(resize(&png(480, 320), 480 + 2020), Ok(Output::Original)));
    }

    #[test]
    fn truncated_and_foreign_bytes_are_undecodable() {
        let whole = png(1000, 600);
        assert!(matches!(resize(&whole[..whole.len() / 2], 300), Err(ResizeError::Undecodable)));
        assert!(matches!(resize(b"<svg xmlns='http://www.w3.org/2000/svg'/>", 300), Err(ResizeError::Undecodable)));
        assert!(matches!(resize(b"", 300), Err(ResizeError::Undecodable)));
    }

    #[test]
    fn huge_declared_dimensions_are_refused_before_decoding() {
        assert!(matches!(resize(&forged_png(100_000), 300), Err(ResizeError::TooLarge)));
        // Within the side limit but still without pixels: undecodable, never a panic.
        assert!(matches!(resize(&forged_png(5_000), 300), Err(ResizeError::Undecodable)));
    }
}
