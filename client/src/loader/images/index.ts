// The loader's image hook: the image code is a lazy chunk, fetched only when the page
// has `img[data-src]` elements.

/** Starts image loading on `win`'s page when it has images to load. */
export function watchImages(win: Window): void {
  if (!win.document.querySelector('img[data-src]')) return;
  import('./run')
    .then((images) => images.startImages(win))
    .catch((error: unknown) => console.error('Veranda: the images chunk could not start.', error));
}
