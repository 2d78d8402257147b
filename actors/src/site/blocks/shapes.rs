//! Shape masks of an image block (spec 000 §9: "Shape mask aspect heights: 100 for most
//! shapes, 150 for tall, 67 for wide"). The spec names no shapes; Veranda's are below,
//! each drawn as a CSS `clip-path` over a frame whose height is the shape's aspect height,
//! as a percentage of its width (`server/src/render/style.rs`, `docs/images.md`).

/// How tall a shape's frame is for its width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShapeProportion {
    /// As tall as wide: most shapes.
    Even,
    /// Taller than wide.
    Tall,
    /// Wider than tall.
    Wide,
}

impl ShapeProportion {
    /// The frame's height as a percentage of its width.
    pub const fn aspect_height(self) -> u32 {
        match self {
            ShapeProportion::Even => 100,
            ShapeProportion::Tall => 150,
            ShapeProportion::Wide => 67,
        }
    }
}

/// Every shape an image block may take (`shape` in a site file), with its proportion.
pub const IMAGE_SHAPES: [(&str, ShapeProportion); 9] = [
    ("circle", ShapeProportion::Even),
    ("square", ShapeProportion::Even),
    ("rounded", ShapeProportion::Even),
    ("diamond", ShapeProportion::Even),
    ("hexagon", ShapeProportion::Even),
    ("tall-oval", ShapeProportion::Tall),
    ("tall-arch", ShapeProportion::Tall),
    ("wide-oval", ShapeProportion::Wide),
    ("wide-rounded", ShapeProportion::Wide),
];

/// The names of [`IMAGE_SHAPES`], for `check-site`'s message.
pub const IMAGE_SHAPE_NAMES: [&str; 9] = {
    let mut names = [""; 9];
    let mut i = 0;
    while i < IMAGE_SHAPES.len() {
        names[i] = IMAGE_SHAPES[i].0;
        i += 1;
    }
    names
};

/// The proportion of shape `name`, if it is one.
pub fn shape_proportion(name: &str) -> Option<ShapeProportion> {
    IMAGE_SHAPES.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tall_and_wide_shapes_are_named_so_and_every_name_is_listed() {
        for (name, proportion) in IMAGE_SHAPES {
            let expected = if name.starts_with("tall-") {
                ShapeProportion::Tall
            } else if name.starts_with("wide-") {
                ShapeProportion::Wide
            } else {
                ShapeProportion::Even
            };
            assert_eq!(proportion, expected, "{name}");
            assert_eq!(shape_proportion(name), Some(proportion));
        }
        assert_eq!(IMAGE_SHAPE_NAMES.len(), IMAGE_SHAPES.len());
        assert_eq!(shape_proportion("star"), None);
    }
}
