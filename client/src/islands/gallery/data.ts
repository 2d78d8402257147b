// Reads a gallery block's data (001 §3) into the options the island needs. Bad data is
// logged with the spec's messages (001 §8) and leaves the server-rendered gallery as it is;
// a field of the wrong type is logged and takes its default.
import { UNDECODABLE } from '../../loader/undecodable';
import { type ActiveClick, type Alignment, stripAlignment, thumbnailsPerRow } from './thumbs';
import { type Transition, transitionNamed } from './transitions';
import { type Boundaries, snapPoints, swipeBoundaries } from './swipe-bounds';
import { isRecord } from '../../data/is-record';
import { AUTO_COLUMN_GUTTER, AUTO_COLUMN_WIDTH, type ColumnBehavior, columnBehavior } from './columns';

/** What the island does with each block design (001 §9 mapping). */
export type Layout = 'base' | 'strip' | 'stacked' | 'grid' | 'autogrid' | 'autocolumns' | 'autorows' | 'carousel' | 'list';

/** The console error for gallery data that is not JSON, or not an object (001 §8), verbatim. */
export const DECODE_ERROR = 'Error decoding gallery block data';
/** The console error for a field of the wrong type (001 §8), verbatim. */
export const EVALUATE_ERROR = 'Error evaluating gallery block data';
/** The start of the error an unknown design name throws (001 §8). */
export const UNKNOWN_DESIGN = 'design not found by name';

/**
 * The block design to layout mapping: stacked to base, slider to strip, slideshow to
 * stacked; no design is base. Any other name throws (001 §8: design not found by name).
 */
export function layoutFor(design: unknown): Layout {
  switch (design) {
    case undefined:
    case null:
    case '':
      return 'base';
    case 'stacked':
      return 'base';
    case 'slider':
      return 'strip';
    case 'slideshow':
      return 'stacked';
    case 'grid':
    case 'autogrid':
    case 'autocolumns':
    case 'autorows':
    case 'carousel':
    case 'list':
      return design;
    default:
      throw new Error(`${UNKNOWN_DESIGN}: ${String(design)}`);
  }
}

/** What clicking a slideshow does (`clickBehavior`): next, previous, or by the side clicked. */
export type ClickBehavior = 'next' | 'previous' | 'side';

/** The options of one gallery. */
export interface GalleryOptions {
  layout: Layout;
  /** Autoplay requested by the block. */
  autoplay: boolean;
  /** Autoplay interval in ms (`autoplay-duration` seconds; 5,000 by default). */
  interval: number;
  /** Carousel slides per row before the responsive rule (3 by default). */
  slidesPerRow: number;
  /** Slideshow transition (fade by default). */
  transition: Transition;
  /** A slideshow shows a thumbnail strip linked to it. */
  thumbnails: boolean;
  /** Thumbnails side by side (5 by default); the strip shows at most the slide count. */
  thumbnailsPerRow: number;
  /** Where the current thumbnail sits in the strip (`active-alignment`; middle by default). */
  alignment: Alignment;
  /** What a click on a slideshow slide does (`clickBehavior`; next by default). */
  clickBehavior: ClickBehavior;
  /** What a click on a strip's current slide or thumbnail does (`activeSlideClickBehavior`; next by default). */
  activeClick: ActiveClick;
  /** Space between a slider strip's slides in px (`vSize`; 10 by default). */
  vSize: number;
  /** Autoplay picks a random other slide instead of the next (`autoplay-randomize`). */
  randomize: boolean;
  /** Square thumbnails (`square-thumbs`; true by default); false keeps each slide's proportions. */
  squareThumbs: boolean;
  /** A slideshow crops every slide to the placeholder's frame (`auto-crop`). */
  autoCrop: boolean;
  /** Thumbnail height in px (`thumbnail-strip-height`), or null: they share the strip's width. */
  stripHeight: number | null;
  /** Space between a slideshow and its strip in px (`thumbnail-strip-margin`), or null: 8. */
  stripMargin: number | null;
  /** The placeholder's height in percent of its width (`imageAspectRatio`, see {@link placeholderPercent}). */
  placeholder: number;
  /** Whether `imageAspectRatio` is a ratio (every image cropped to it), not 'Auto'. */
  ratioGiven: boolean;
  /** Auto-columns designs: the column width in px (`columnWidth`; 250 by default). */
  columnWidth: number;
  /** Auto-columns designs: px between columns (`gutter`; 0 by default). */
  gutter: number;
  /** Auto-columns designs: the column count rounded down (`behavior` min, the default) or up. */
  columnBehavior: ColumnBehavior;
  /** newSwipe: what a drag does past the first and last slide (`boundaries`; none at either end: it wraps). */
  boundaries: Boundaries;
  /** newSwipe: where a released drag settles, in fractions of the slide's width (`snapPoints`; none by default). */
  snapPoints: number[];
}

/** The default placeholder's height in percent of its width (001 §9). */
const AUTO_PLACEHOLDER = 65;

/** 000 §9 / 001 §9 "Default slider aspect ratio 50": a slider's placeholder, in percent of its width, unless a ratio is set. */
export const SLIDER_PLACEHOLDER = 50;

/** A positive ratio from `imageAspectRatio` ('1.5' or 1.5), or null ('Auto', anything else). */
function ratioOf(value: unknown): number | null {
  const ratio = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(ratio) && ratio > 0 ? ratio : null;
}

/** The placeholder's height in percent of its width (001 §9): 65 for 'Auto', otherwise 100 ÷ the ratio. */
export function placeholderPercent(imageAspectRatio: unknown): number {
  const ratio = ratioOf(imageAspectRatio);
  return ratio === null ? AUTO_PLACEHOLDER : 100 / ratio;
}

/** A non-negative whole number of px, or null. */
function pixels(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
}

/** The JSON type each field must have when present; `null` counts as absent. */
const FIELD_TYPES: Readonly<Record<string, 'string' | 'number' | 'boolean' | 'array'>> = {
  design: 'string',
  slides: 'array',
  autoplay: 'boolean',
  'autoplay-duration': 'number',
  slidesPerRow: 'number',
  thumbnails: 'boolean',
  'thumbnails-per-row': 'number',
  'active-alignment': 'string',
  transition: 'string',
  clickBehavior: 'string',
  activeSlideClickBehavior: 'string',
  vSize: 'number',
  'autoplay-randomize': 'boolean',
  'square-thumbs': 'boolean',
  'auto-crop': 'boolean',
  'thumbnail-strip-height': 'number',
  'thumbnail-strip-margin': 'number',
  mixedContent: 'boolean',
  listImageSize: 'number',
  columnWidth: 'number',
  gutter: 'number',
  behavior: 'string',
};

const CLICK_BEHAVIORS: readonly ClickBehavior[] = ['next', 'previous', 'side'];
const ACTIVE_CLICKS: readonly ActiveClick[] = ['next', 'previous', 'none'];

/** `data` without its fields of the wrong type (or unknown click values); logs once when it drops any. */
function wellTyped(data: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  let dropped = false;
  for (const [key, value] of Object.entries(data)) {
    const type = FIELD_TYPES[key];
    const ok =
      value === null ||
      type === undefined ||
      (type === 'array' ? Array.isArray(value) : typeof value === type && (type !== 'number' || Number.isFinite(value)));
    if (ok) kept[key] = value;
    else dropped = true;
  }
  for (const [key, allowed] of [
    ['clickBehavior', CLICK_BEHAVIORS],
    ['activeSlideClickBehavior', ACTIVE_CLICKS],
  ] as const) {
    const value = kept[key];
    if (typeof value === 'string' && !(allowed as readonly string[]).includes(value)) {
      delete kept[key];
      dropped = true;
    }
  }
  if (dropped) console.error(EVALUATE_ERROR);
  return kept;
}

/**
 * The options in `data`, or `null` (after logging) when it is not gallery block data. An
 * unknown design throws, and so does a slideshow's unknown transition (001 §8); other
 * designs ignore the transition.
 */
export function parseGalleryData(raw: unknown): GalleryOptions | null {
  if (raw === UNDECODABLE || !isRecord(raw)) {
    console.error(DECODE_ERROR);
    return null;
  }
  const data = wellTyped(raw);
  const seconds = Number(data['autoplay-duration']);
  const perRow = Number(data.slidesPerRow);
  const vSize = Number(data.vSize ?? 10);
  const layout = layoutFor(data.design);
  return {
    layout,
    autoplay: data.autoplay === true,
    interval: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 5000,
    slidesPerRow: Number.isInteger(perRow) && perRow > 0 ? perRow : 3,
    transition: layout === 'stacked' ? transitionNamed(data.transition) : 'fade',
    thumbnails: layout === 'stacked' && data.thumbnails === true,
    thumbnailsPerRow: thumbnailsPerRow(data['thumbnails-per-row'], Number.POSITIVE_INFINITY),
    alignment: stripAlignment(data['active-alignment']),
    clickBehavior: (data.clickBehavior as ClickBehavior | undefined) ?? 'next',
    activeClick: (data.activeSlideClickBehavior as ActiveClick | undefined) ?? 'next',
    vSize: vSize >= 0 ? vSize : 10,
    randomize: data['autoplay-randomize'] === true,
    squareThumbs: data['square-thumbs'] !== false,
    autoCrop: data['auto-crop'] === true,
    stripHeight: pixels(data['thumbnail-strip-height']) || null,
    stripMargin: pixels(data['thumbnail-strip-margin']),
    placeholder:
      layout === 'strip' && ratioOf(data.imageAspectRatio) === null ? SLIDER_PLACEHOLDER : placeholderPercent(data.imageAspectRatio),
    ratioGiven: ratioOf(data.imageAspectRatio) !== null,
    columnWidth: Number(data.columnWidth) > 0 ? Number(data.columnWidth) : AUTO_COLUMN_WIDTH,
    gutter: pixels(data.gutter) ?? AUTO_COLUMN_GUTTER,
    columnBehavior: columnBehavior(data.behavior),
    boundaries: swipeBoundaries(data.boundaries),
    snapPoints: snapPoints(data.snapPoints),
  };
}
