// newSwipe boundaries and snap points (001 §5), as pure rules: where a dragged slide may go
// past the first and last slide, whether a swipe there changes slide, and where a released
// drag settles. Invalid block data is skipped with a console warning (001 §8).
import type { SwipeBoundary } from '../../generated/types';

/** The boundary words, in the spec's order (001 §5: "none, hard or inertial"). */
export const BOUNDARY_WORDS: readonly SwipeBoundary[] = ['none', 'hard', 'inertial'];

/** The boundaries before the first slide (`start`) and after the last (`end`). */
export interface Boundaries {
  start: SwipeBoundary;
  end: SwipeBoundary;
}

/** No boundary at either end: the slideshow wraps, as it did before boundaries existed. */
export const NO_BOUNDARIES: Readonly<Boundaries> = { start: 'none', end: 'none' };

/** Past an inertial edge the slide moves this fraction of the finger's distance. */
export const INERTIAL_RESISTANCE = 0.3;

/** The start of the console warning for swipe data that is skipped. */
export const SKIPPED_SWIPE_DATA = 'Skipping invalid newSwipe';

const isBoundary = (value: unknown): value is SwipeBoundary => (BOUNDARY_WORDS as readonly unknown[]).includes(value);

/** The block's `boundaries` (`{ start, end }`, an end not given being none); anything else is skipped with a warning. */
export function swipeBoundaries(value: unknown): Boundaries {
  if (value === undefined || value === null) return { ...NO_BOUNDARIES };
  if (typeof value === 'object' && !Array.isArray(value)) {
    const { start = 'none', end = 'none', ...rest } = value as Record<string, unknown>;
    if (isBoundary(start) && isBoundary(end) && Object.keys(rest).length === 0) return { start, end };
  }
  console.warn(`${SKIPPED_SWIPE_DATA} boundaries`, value);
  return { ...NO_BOUNDARIES };
}

/** One snap point's fraction of the slide's width (`"50%"` → 0.5), or null unless it is 0% to 100%. */
function snapFraction(point: unknown): number | null {
  const match = typeof point === 'string' ? /^\s*([^%]+?)\s*%\s*$/.exec(point) : null;
  const number = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(number) && number >= 0 && number <= 100 ? number / 100 : null;
}

/**
 * The block's `snapPoints` as fractions of the slide's width, ascending; `none` (or nothing)
 * is none. A value that is neither, or a list with any entry that is not 0% to 100%, is
 * skipped with a warning and there are none.
 */
export function snapPoints(value: unknown): number[] {
  if (value === undefined || value === null || value === 'none') return [];
  const fractions = Array.isArray(value) ? value.map(snapFraction) : [null];
  if (fractions.every((f): f is number => f !== null)) return [...new Set(fractions)].sort((a, b) => a - b);
  console.warn(`${SKIPPED_SWIPE_DATA} snapPoints`, value);
  return [];
}

/** The end a drag `offset` px long (right is positive) goes past on slide `index` of `count`, if any. */
export function edgePassed(offset: number, index: number, count: number): 'start' | 'end' | null {
  if (offset > 0 && index === 0) return 'start';
  if (offset < 0 && index === count - 1) return 'end';
  return null;
}

/** Where the dragged slide is drawn: past a hard edge it stays, past an inertial one it moves with resistance. */
export function boundedOffset(offset: number, index: number, count: number, bounds: Boundaries): number {
  const edge = edgePassed(offset, index, count);
  const boundary = edge ? bounds[edge] : 'none';
  if (boundary === 'hard') return 0;
  return boundary === 'inertial' ? offset * INERTIAL_RESISTANCE : offset;
}

/** Whether a swipe changes slide: not past a hard or inertial edge (there is nothing to wrap to). */
export function swipeAllowed(direction: 'next' | 'previous', index: number, count: number, bounds: Boundaries): boolean {
  if (direction === 'next' && index === count - 1) return bounds.end === 'none';
  if (direction === 'previous' && index === 0) return bounds.start === 'none';
  return true;
}

/**
 * Where a released drag that does not change slide settles, in px: back at 0 past a hard or
 * inertial edge; otherwise at the snap point nearest to the drop, on the side it was dragged
 * to (0, the slide's own place, always counts); at 0 without snap points.
 */
export function settleOffset(offset: number, width: number, snaps: readonly number[], index: number, count: number, bounds: Boundaries): number {
  const edge = edgePassed(offset, index, count);
  if ((edge && bounds[edge] !== 'none') || snaps.length === 0 || !(width > 0)) return 0;
  const distance = Math.abs(offset) / width;
  const nearest = [0, ...snaps].reduce((best, snap) => (Math.abs(snap - distance) < Math.abs(best - distance) ? snap : best));
  return nearest === 0 ? 0 : Math.sign(offset) * nearest * width;
}
