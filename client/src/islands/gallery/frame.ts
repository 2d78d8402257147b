// The space a moving gallery's images keep before they load (001 §9 placeholder): with an
// `imageAspectRatio` ratio every image is cropped to it; with 'Auto' an image of unknown
// size is 65 % of its width high until it loads. A slideshow with `auto-crop` crops every
// slide to that frame; one without shows each image whole inside a frame a ratio sets.
import type { GalleryOptions } from './data';

/** The CSS aspect ratio of a placeholder `percent` of its width high. */
export function cssRatio(percent: number): string {
  return `100 / ${Number(percent.toFixed(3))}`;
}

/** Gives the images of the gallery `el` (its list `list`) their placeholder or frame. */
export function applyFrame(el: HTMLElement, list: HTMLElement, options: GalleryOptions): void {
  list.style.setProperty('--gallery-ratio', cssRatio(options.placeholder));
  const stacked = options.layout === 'stacked';
  if (options.ratioGiven || (stacked && options.autoCrop)) {
    el.classList.add('gallery-viewer--framed');
    el.classList.toggle('gallery-viewer--contain', stacked && !options.autoCrop);
    return;
  }
  for (const img of list.querySelectorAll<HTMLImageElement>(':scope > li img')) {
    if (!img.hasAttribute('width')) img.classList.add('gallery-placeholder');
  }
}
