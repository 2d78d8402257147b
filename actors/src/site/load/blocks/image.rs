//! An image block's sizing fields (spec 001 §3 Image): size adjustment, device pixel ratio
//! bounds, size format and shape mask.

use super::Loader;
use crate::site::blocks::{ImageBlock, IMAGE_SHAPE_NAMES, IMAGE_SIZE_FORMATS};

impl Loader {
    /// `sizeAdjustment` is 0 or more; `dprMin` and `dprMax` are above 0, the minimum not
    /// above the maximum; `sizeFormat` is `queryString` or `filename`.
    pub(super) fn check_image_sizes(&mut self, file: &str, path: &str, image: &ImageBlock) {
        let at = |field: &str| format!("{path}.{field}");
        if let Some(adjust) = image.size_adjustment.filter(|a| !a.is_finite() || *a < 0.0) {
            self.problems.add(file, at("sizeAdjustment"), format!("{adjust} must be a number of 0 or more"));
        }
        for (field, dpr) in [("dprMin", image.dpr_min), ("dprMax", image.dpr_max)] {
            if let Some(dpr) = dpr.filter(|d| !d.is_finite() || *d <= 0.0) {
                self.problems.add(file, at(field), format!("{dpr} must be a pixel ratio above 0"));
            }
        }
        if let (Some(min), Some(max)) = (image.dpr_min, image.dpr_max) {
            if min > max {
                self.problems.add(file, at("dprMin"), format!("{min} is above dprMax ({max})"));
            }
        }
        self.one_of(file, &at("sizeFormat"), image.size_format.as_deref(), &IMAGE_SIZE_FORMATS);
        self.one_of(file, &at("shape"), image.shape.as_deref(), &IMAGE_SHAPE_NAMES);
    }
}

#[cfg(test)]
mod tests;
