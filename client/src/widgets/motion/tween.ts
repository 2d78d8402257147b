// The tween and the page scroll built on it (spec 001 §5: "Scroll distance is clamped between
// min and max duration; durations must be finite numbers. The tween requires a function and a
// finite duration." §9: "Scroll offset default 30; min and max duration default 50; easing
// easeOutSine. Tween default duration 300 ms."). Without motion (reduced motion,
// `?nomotion=true`) a tween jumps to its end in the same call.
import { motionOff } from '../animations/hide-show';

/** The tween's default duration, ms. */
export const TWEEN_MS = 300;
/** How far above an element a scroll to it stops, px. */
export const SCROLL_OFFSET = 30;
/** The shortest and longest a scroll takes by default, ms. */
export const SCROLL_MIN_MS = 50;
export const SCROLL_MAX_MS = 50;

/** Progress 0…1 to eased progress 0…1. */
export type Easing = (t: number) => number;

/** easeOutSine: fast at first, settling at the end. */
export const easeOutSine: Easing = (t) => Math.sin((t * Math.PI) / 2);

/** What a tween may be told. */
export interface TweenOptions {
  duration?: number;
  easing?: Easing;
  win?: Window;
}

/**
 * Calls `step` with the eased progress on every frame for `duration` ms, ending with 1;
 * resolves then. Throws a TypeError without a function or a finite duration.
 */
export function tween(step: (progress: number) => void, options: TweenOptions = {}): Promise<void> {
  const { duration = TWEEN_MS, easing = easeOutSine, win = window } = options;
  if (typeof step !== 'function') throw new TypeError('The tween requires a function.');
  if (!Number.isFinite(duration) || duration < 0) throw new TypeError('The tween requires a finite duration.');
  if (duration === 0 || motionOff(win) || typeof win.requestAnimationFrame !== 'function') {
    step(1);
    return Promise.resolve();
  }
  return new Promise((done) => {
    const start = win.performance.now();
    // The clock is read on each frame rather than taken from the frame's timestamp, whose
    // origin is not the same everywhere.
    const frame = () => {
      const t = Math.min(1, Math.max(0, (win.performance.now() - start) / duration));
      step(t === 1 ? 1 : easing(t));
      if (t === 1) done();
      else win.requestAnimationFrame(frame);
    };
    win.requestAnimationFrame(frame);
  });
}

/**
 * How long a scroll of `distance` px takes: the distance in ms, clamped between `min` and
 * `max`. Throws a TypeError when either is not a finite number.
 */
export function scrollDuration(distance: number, min = SCROLL_MIN_MS, max = SCROLL_MAX_MS): number {
  if (!Number.isFinite(min) || !Number.isFinite(max)) throw new TypeError('Scroll durations must be finite numbers.');
  return Math.min(Math.max(Math.abs(distance), min), Math.max(min, max));
}

/** Scrolls the page so that `el` sits `offset` px below the top of the window. */
export function scrollToElement(
  el: Element,
  options: { offset?: number; minDuration?: number; maxDuration?: number; win?: Window } = {},
): Promise<void> {
  const { offset = SCROLL_OFFSET, minDuration = SCROLL_MIN_MS, maxDuration = SCROLL_MAX_MS, win = window } = options;
  const from = win.scrollY;
  const distance = el.getBoundingClientRect().top - offset;
  const duration = scrollDuration(distance, minDuration, maxDuration);
  return tween((progress) => win.scrollTo(0, from + distance * progress), { duration, win });
}
