// The lightbox's constants (001 §9) and its opening and closing sequence.

/** Lightbox timings and zones, from 001 §9. */
export const LIGHTBOX = {
  /** The overlay fades in and out over 0.35 s. */
  overlayFadeMs: 350,
  /** The content fades in over 0.6 s, after the overlay. */
  contentFadeMs: 600,
  /** Moving to another item takes 0.6 s. */
  slideMs: 600,
  /** Arrow keys act at most once per 200 ms. */
  keyThrottleMs: 200,
  /** Clicks within 2 % of the window's width from an edge go previous / next. */
  edgeZone: 0.02,
  /** Key codes of the left and right arrows. */
  keyLeft: 37,
  keyRight: 39,
  /** Windows up to 432 px wide are mobile (the spec's mobile breakpoint): a scroller, a caption toggle. */
  mobileMaxWidth: 432,
  /** A scrolled mobile lightbox has settled on an item once no scroll came for 100 ms. */
  scrollSettleMs: 100,
} as const;

/** How long moving to another item takes on a desktop (no time with reduced motion). */
export function slideDuration(reducedMotion: boolean): number {
  return reducedMotion ? 0 : LIGHTBOX.slideMs;
}

/** The item a horizontal scroller of `width`-wide items shows at `scrollLeft`, within `count`. */
export function itemAt(scrollLeft: number, width: number, count: number): number {
  if (width <= 0 || count <= 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.round(Math.abs(scrollLeft) / width)));
}

/** One step of opening or closing: a class to set or clear after a delay from the start. */
export interface Step {
  at: number;
  phase: 'overlay' | 'content' | 'controls' | 'removed';
}

/** Opening: overlay, then content, then the close control (all at once with reduced motion). */
export function openingSteps(reducedMotion: boolean): Step[] {
  if (reducedMotion) return [{ at: 0, phase: 'overlay' }, { at: 0, phase: 'content' }, { at: 0, phase: 'controls' }];
  return [
    { at: 0, phase: 'overlay' },
    { at: LIGHTBOX.overlayFadeMs, phase: 'content' },
    { at: LIGHTBOX.overlayFadeMs + LIGHTBOX.contentFadeMs, phase: 'controls' },
  ];
}

/** Closing: fade out, then remove (immediately with reduced motion). */
export function closingDelay(reducedMotion: boolean): number {
  return reducedMotion ? 0 : LIGHTBOX.overlayFadeMs;
}

/** Where a click at `x` in a window `width` wide falls: an edge zone or the middle. */
export function edgeOf(x: number, width: number): 'previous' | 'next' | null {
  if (width <= 0) return null;
  if (x <= width * LIGHTBOX.edgeZone) return 'previous';
  if (x >= width * (1 - LIGHTBOX.edgeZone)) return 'next';
  return null;
}

/** A function that runs `act` at most once per `ms`; `now` is injectable for tests. */
export function throttle(ms: number, act: () => void, now: () => number = () => performance.now()): () => void {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    act();
  };
}
