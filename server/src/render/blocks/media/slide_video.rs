//! A gallery's video slide (001 §3 `data-type="video"`): the slide's image is the poster,
//! linked to the player for visitors without JavaScript; the player's iframe waits in a
//! `<template>` until the gallery island's play control asks for it (no iframe before).

use maud::{html, Markup};

/// The iframe of a video slide's player at `src` (the address the site loader took from an
/// allowed provider's embed), named `title`, kept in a template.
pub(super) fn player(src: &str, title: &str) -> Markup {
    html! {
        template class="gallery-video-embed" {
            iframe src=(src) title=(title) allow="autoplay; fullscreen; picture-in-picture; encrypted-media" allowfullscreen {}
        }
    }
}
