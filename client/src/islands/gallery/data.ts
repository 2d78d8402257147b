// Reads a gallery block's data (001 §3) into the options the island needs. Bad data is
// logged with the spec's message and leaves the server-rendered gallery as it is.
import { type Alignment, stripAlignment, thumbnailsPerRow } from './thumbs';
import { type Transition, transitionNamed } from './transitions';

/** What the island does with each block design (001 §9 mapping). */
export type Layout = 'base' | 'strip' | 'stacked' | 'grid' | 'autogrid' | 'autocolumns' | 'autorows' | 'carousel' | 'list';

/** The console error for undecodable gallery data (001 §8), verbatim. */
export const DECODE_ERROR = 'Error decoding gallery block data';

/** The block design to layout mapping: stacked to base, slider to strip, slideshow to stacked. */
export function layoutFor(design: unknown): Layout {
  switch (design) {
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
      return 'base';
  }
}

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
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The options in `data`, or `null` (after logging) when it is not gallery block data. A
 * slideshow whose transition is unknown throws (001 §8); other designs ignore the field.
 */
export function parseGalleryData(data: unknown): GalleryOptions | null {
  if (!isRecord(data) || (data.slides !== undefined && !Array.isArray(data.slides))) {
    console.error(DECODE_ERROR);
    return null;
  }
  const seconds = Number(data['autoplay-duration']);
  const perRow = Number(data.slidesPerRow);
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
  };
}
