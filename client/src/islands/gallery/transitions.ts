// Slideshow transitions (001 §4, §9): fade, ken burns, scroll (horizontal or vertical),
// swipe and newSwipe, as pure timing and direction rules. The viewer turns them into CSS
// classes and custom properties; with reduced motion or `nomotion=true` every duration is 0
// and ken burns does not zoom.

/** The start of the error an unknown transition name throws (001 §8), verbatim. */
export const UNKNOWN_TRANSITION = 'could not find transition named';

/** A slideshow transition. */
export type Transition = 'fade' | 'kenburns' | 'scroll' | 'scroll-vertical' | 'swipe' | 'newswipe';

/** Ken burns zooms the current slide to this scale while it shows. */
export const KEN_BURNS_ZOOM = 1.075;
/** The swipe transition takes 0.28 s. */
export const SWIPE_MS = 280;
/** newSwipe durations are clamped to 0.2–0.5 s, 0.3–0.5 s on windows 767 px wide or more. */
export const NEW_SWIPE = { minMs: 200, wideMinMs: 300, maxMs: 500, narrowBelowPx: 767 } as const;

/**
 * The transition named in the block's `transition` field. Spellings are compared without
 * case, hyphens, underscores or spaces (`ken-burns`, `kenBurns`, `new-swipe`, `newSwipe`);
 * `scroll` is horizontal, `scroll-vertical` vertical; no name means fade. Any other name
 * throws (001 §8: could not find transition named …).
 */
export function transitionNamed(name: unknown): Transition {
  if (name === undefined || name === null || name === '') return 'fade';
  const key = String(name).toLowerCase().replace(/[-_\s]/g, '');
  switch (key) {
    case 'fade':
      return 'fade';
    case 'kenburns':
      return 'kenburns';
    case 'scroll':
    case 'scrollhorizontal':
      return 'scroll';
    case 'scrollvertical':
      return 'scroll-vertical';
    case 'swipe':
      return 'swipe';
    case 'newswipe':
      return 'newswipe';
    default:
      throw new Error(`${UNKNOWN_TRANSITION} ${String(name)}`);
  }
}

/** How long the incoming and outgoing slides move, and when the change is over. */
export interface Timing {
  inMs: number;
  outMs: number;
  /** The slideshow is in motion until then (index changes are refused). */
  settleMs: number;
}

/** A finished drag that turned into a swipe: how far the slide still has to go and how fast it went. */
export interface Fling {
  remainingPx: number;
  /** px per ms; 0 when not known (a button or key press). */
  velocity: number;
}

/** The newSwipe duration: the rest of the way at the fling's speed, clamped; the maximum without a fling. */
export function newSwipeDuration(windowWidth: number, fling?: Fling): number {
  const min = windowWidth < NEW_SWIPE.narrowBelowPx ? NEW_SWIPE.minMs : NEW_SWIPE.wideMinMs;
  if (!fling || !(fling.velocity > 0) || !Number.isFinite(fling.remainingPx)) return NEW_SWIPE.maxMs;
  const ms = Math.max(0, fling.remainingPx) / fling.velocity;
  return Math.min(NEW_SWIPE.maxMs, Math.max(min, ms));
}

/**
 * The timing of one change. `speedMs` is the slideshow speed (1 s by default). Fade and ken
 * burns fade in over the speed and out over 1.2 times it; scroll moves both slides over the
 * speed; swipe takes 0.28 s; newSwipe follows {@link newSwipeDuration}. Without motion, 0.
 */
export function transitionTiming(
  transition: Transition,
  options: { speedMs: number; motion: boolean; windowWidth: number; fling?: Fling },
): Timing {
  if (!options.motion) return { inMs: 0, outMs: 0, settleMs: 0 };
  const speed = Math.max(0, options.speedMs);
  switch (transition) {
    case 'fade':
    case 'kenburns':
      return { inMs: speed, outMs: speed * 1.2, settleMs: speed * 1.2 };
    case 'scroll':
    case 'scroll-vertical':
      return { inMs: speed, outMs: speed, settleMs: speed };
    case 'swipe':
      return { inMs: SWIPE_MS, outMs: SWIPE_MS, settleMs: SWIPE_MS };
    case 'newswipe': {
      const ms = newSwipeDuration(options.windowWidth, options.fling);
      return { inMs: ms, outMs: ms, settleMs: ms };
    }
  }
}

/**
 * Which way a change from `previous` to `index` moves: one step on (also from the last slide
 * to the first) is next, one step back (also from the first to the last) is previous, and a
 * longer jump goes the way of the indexes.
 */
export function moveDirection(previous: number, index: number, count: number): 'next' | 'previous' {
  if (count <= 1 || previous === index) return 'next';
  const forward = (((index - previous) % count) + count) % count;
  if (forward === 1) return 'next';
  if (forward === count - 1) return 'previous';
  return index > previous ? 'next' : 'previous';
}

/** The zoom origin of a ken burns slide: its focal point (`x,y` fractions), else the centre. */
export function focalOrigin(focalPoint: string | null | undefined): string {
  const [x, y, ...rest] = (focalPoint ?? '').split(',').map((p) => (p.trim() === '' ? Number.NaN : Number(p)));
  const fraction = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v) && v >= 0 && v <= 1;
  if (rest.length > 0 || !fraction(x) || !fraction(y)) return '50% 50%';
  return `${+(x * 100).toFixed(2)}% ${+(y * 100).toFixed(2)}%`;
}
