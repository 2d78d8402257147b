// Loads one `img[data-src]`: checks it, picks the ladder width its box needs, applies the
// crop mode, focal point and alignment, and marks it `loading` then `loaded`.
import { alignmentPosition, boundedDpr, parseCropMode, parseDimensions, parseFocalPoint, parseSizeAdjustment } from './attributes';
import { NAMED_WIDTH, pickWidth, sizedUrl, upgradeToHttps } from './ladder';

/** The image helper's warnings (001 §8), verbatim. */
export const IMAGE_WARNINGS = {
  notImage: 'Element is not a valid image element.',
  noSource: 'Invalid or missing image source.',
  noParent: 'Image element has no parentNode.',
  noAlignment: 'Missing alignment for content-fit image.',
} as const;

/** What the page tells us about the screen. */
export interface ImageEnvironment {
  /** `devicePixelRatio`. */
  dpr: number;
  /** The visitor asked to save data. */
  dataSaver: boolean;
  /** The page's address (base for relative sources, host for the https upgrade). */
  page: URL;
}

/** The CSS width an image is drawn at inside its box, given its crop mode. */
function drawnWidth(el: HTMLImageElement, box: Element, cover: boolean): number {
  const own = el.getBoundingClientRect();
  const outer = box.getBoundingClientRect();
  const boxWidth = own.width || outer.width;
  const dims = parseDimensions(el.getAttribute('data-image-dimensions'));
  if (!cover || !dims || outer.height <= 0) return boxWidth;
  // Covering a box scales the image to the larger of the two ratios; the overflow is cropped.
  const scale = Math.max(outer.width / dims.width, outer.height / dims.height);
  return dims.width * scale;
}

/** The URL to load for `el` with its styles applied, or `null` after a warning. */
export function planImage(el: Element, env: ImageEnvironment): string | null {
  if (!(el instanceof HTMLImageElement)) {
    console.warn(IMAGE_WARNINGS.notImage);
    return null;
  }
  const box = el.parentElement;
  if (!el.parentNode || !box) {
    console.warn(IMAGE_WARNINGS.noParent);
    return null;
  }
  let source: URL;
  try {
    const raw = el.getAttribute('data-src')?.trim() ?? '';
    if (!raw) throw new Error('empty');
    source = new URL(upgradeToHttps(raw, env.page), env.page);
    if (source.protocol !== 'https:' && source.protocol !== 'http:') throw new Error('scheme');
  } catch {
    console.warn(IMAGE_WARNINGS.noSource);
    return null;
  }
  const crop = parseCropMode(el.getAttribute('data-crop-mode'));
  if (crop === 'contain') {
    const alignment = el.getAttribute('data-alignment');
    if (!alignment) console.warn(IMAGE_WARNINGS.noAlignment);
    el.style.objectFit = 'contain';
    el.style.objectPosition = alignmentPosition(alignment ?? 'center');
  } else if (crop === 'cover') {
    const focal = parseFocalPoint(el.getAttribute('data-image-focal-point'));
    el.style.objectFit = 'cover';
    el.style.objectPosition = `${focal.x * 100}% ${focal.y * 100}%`;
  }
  const adjust = parseSizeAdjustment(el.getAttribute('data-size-adjustment'));
  const dpr = boundedDpr(env.dpr, el.getAttribute('data-dpr-min'), el.getAttribute('data-dpr-max'));
  const width = pickWidth(drawnWidth(el, box, crop === 'cover') * adjust, dpr, env.dataSaver);
  return sizedUrl(source.href, width, env.page.href, el.getAttribute('data-size-format') === 'filename');
}

/** The ladder width a URL asks for (in its query or after its file name); the original counts as wider than any rung. */
function askedWidth(url: URL): number {
  const named = NAMED_WIDTH.exec(url.pathname);
  if (named) return Number(named[1]);
  const format = url.searchParams.get('format');
  if (format === null || format === 'original') return Number.POSITIVE_INFINITY;
  return Number.parseInt(format, 10) || 0;
}

/**
 * Whether `current` (the server's fallback `src`) is the same image at least as wide as
 * `planned`: then it is kept, so the browser never fetches an image twice.
 */
export function coversPlanned(current: string | null, planned: string, base: string): boolean {
  if (!current) return false;
  try {
    const have = new URL(current, base);
    const want = new URL(planned, base);
    const file = (url: URL) => url.pathname.replace(NAMED_WIDTH, '');
    return have.origin === want.origin && file(have) === file(want) && askedWidth(have) >= askedWidth(want);
  } catch {
    return false;
  }
}

/** Loads `el` at its planned URL; resolves when it has loaded or failed. */
export function loadImage(el: Element, env: ImageEnvironment): Promise<void> {
  // An image with a `srcset` is the browser's to size: it is only marked loading, then loaded.
  const planned = el.hasAttribute('srcset') ? el.getAttribute('src') : planImage(el, env);
  if (planned === null || !(el instanceof HTMLImageElement)) return Promise.resolve();
  const current = el.getAttribute('src');
  const keep = coversPlanned(current, planned, env.page.href);
  const url = keep && current !== null ? current : planned;
  if (keep && el.complete && el.naturalWidth > 0) {
    el.classList.add('loaded');
    return Promise.resolve();
  }
  el.classList.add('loading');
  return new Promise((resolve) => {
    const settle = (loaded: boolean) => {
      el.removeEventListener('load', onLoad);
      el.removeEventListener('error', onError);
      el.classList.remove('loading');
      if (loaded) el.classList.add('loaded');
      resolve();
    };
    const onLoad = () => settle(true);
    const onError = () => settle(false);
    el.addEventListener('load', onLoad);
    el.addEventListener('error', onError);
    if (el.getAttribute('src') !== url) el.setAttribute('src', url);
  });
}
