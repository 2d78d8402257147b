// Carousel rows, swipe gestures and autoplay for galleries (001 §4, §9), without the DOM.

/** Carousel slides per row for a container `width` px wide: 2 under 480 px, 3 under 724 px. */
export function carouselSlidesPerRow(original: number, width: number): number {
  const perRow = Math.max(1, Math.floor(original) || 3);
  if (width < 480 && perRow > 1) return 2;
  if (width < 724 && perRow > 2) return 3;
  return perRow;
}

/** The carousel's groups and which controls are usable at group `group`. */
export function carouselControls(count: number, perRow: number, group: number) {
  const groups = Math.max(1, Math.ceil(count / Math.max(1, perRow)));
  return {
    groups,
    /** Every slide fits in one row: no controls at all. */
    hidden: count <= perRow,
    previousDisabled: group <= 0,
    nextDisabled: group >= groups - 1,
  };
}

/** Swipe thresholds: 50 px within 250 ms; the axis locks after 10 px. */
export const SWIPE = { distancePx: 50, withinMs: 250, axisLockPx: 10 } as const;

/** A pointer position at a time. */
export interface Point {
  x: number;
  y: number;
  t: number;
}

/** The axis a drag moves along once it has gone more than 10 px, else `null`. */
export function lockAxis(start: Point, now: Point): 'x' | 'y' | null {
  const dx = Math.abs(now.x - start.x);
  const dy = Math.abs(now.y - start.y);
  if (Math.max(dx, dy) <= SWIPE.axisLockPx) return null;
  return dx >= dy ? 'x' : 'y';
}

/** A horizontal swipe of at least 50 px within 250 ms: left is next, right is previous. */
export function swipeDirection(start: Point, end: Point): 'next' | 'previous' | null {
  const dx = end.x - start.x;
  const dt = end.t - start.t;
  if (dt < 0 || dt > SWIPE.withinMs || Math.abs(dx) < SWIPE.distancePx) return null;
  if (lockAxis(start, end) !== 'x') return null;
  return dx < 0 ? 'next' : 'previous';
}

/** Why autoplay is paused; it runs only when there is none. */
export type PauseReason = 'hover' | 'focus' | 'control' | 'video' | 'hidden';

/** Autoplay: `advance` every `interval` ms while enabled and not paused for any reason. */
/**
 * The slide a randomised autoplay shows next (`autoplayOptions.randomize`): any slide but the
 * current one, each as likely; `random` gives a number in [0, 1).
 */
export function randomSlide(current: number, count: number, random: () => number): number {
  if (count <= 1) return current;
  const pick = Math.min(count - 2, Math.floor(random() * (count - 1)));
  return pick >= current ? pick + 1 : pick;
}

export class Autoplay {
  private readonly reasons = new Set<PauseReason>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly advance: () => void,
    /** Off for good with `nomotion=true` or a reduced-motion preference. */
    readonly enabled: boolean,
    readonly interval = 5000,
  ) {
    this.update();
  }

  /** Whether slides are advancing now. */
  get running(): boolean {
    return this.timer !== undefined;
  }

  pause(reason: PauseReason): void {
    this.reasons.add(reason);
    this.update();
  }

  resume(reason: PauseReason): void {
    this.reasons.delete(reason);
    this.update();
  }

  /** Whether `reason` is holding autoplay. */
  pausedBy(reason: PauseReason): boolean {
    return this.reasons.has(reason);
  }

  stop(): void {
    this.reasons.add('hidden');
    this.update();
  }

  private update(): void {
    const run = this.enabled && this.reasons.size === 0;
    if (run && this.timer === undefined) this.timer = setInterval(this.advance, this.interval);
    if (!run && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }
}

/** Whether autoplay may run on this page: not with `nomotion=true` nor reduced motion. */
export function motionAllowed(win: Window): boolean {
  const nomotion = new URLSearchParams(win.location.search).get('nomotion') === 'true';
  const reduced = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  return !nomotion && !reduced;
}
