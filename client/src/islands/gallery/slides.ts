// The current-slide logic of a gallery (001 §4), without the DOM: indexes normalised
// modulo the slide count, looping or stopping with reached-end / reached-beginning,
// changes refused while a transition is in motion, and linked galleries (a slideshow and
// its thumbnail strip) kept on the same index.

/** Why an index change did not happen. */
export type Refusal = 'empty' | 'in-motion' | 'linked-in-motion' | 'reached-end' | 'reached-beginning';

/** What a gallery tells its listeners. */
export type SlideEvent =
  | { type: 'change'; index: number; previous: number }
  | { type: 'reached-end' }
  | { type: 'reached-beginning' };

/** `index` modulo `count`, always in `0..count` (0 for an empty gallery). */
export function normalise(index: number, count: number): number {
  if (count <= 0 || !Number.isFinite(index)) return 0;
  return ((Math.trunc(index) % count) + count) % count;
}

/** One gallery's current slide. */
export class Slides {
  /** The current slide. */
  index: number;
  /** A transition is running; cleared by {@link Slides.settle}. */
  inMotion = false;
  /** Where the running transition goes. */
  private target = 0;
  private readonly linked = new Set<Slides>();
  private readonly listeners = new Set<(event: SlideEvent) => void>();

  /** How many slides there are. */
  count: number;

  constructor(
    count: number,
    /** Whether next after the last slide goes to the first. */
    readonly loop = true,
    start = 0,
  ) {
    this.count = count;
    this.index = normalise(start, count);
    this.target = this.index;
  }

  /** Listens to changes and reached-end / reached-beginning; returns the unsubscribe. */
  on(listener: (event: SlideEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Keeps `other` on this gallery's index from now on (both ways). */
  link(other: Slides): void {
    if (other === this) return;
    this.linked.add(other);
    other.linked.add(this);
  }

  /** Goes to `index` (normalised); the change starts a transition that {@link settle} ends. */
  go(index: number): Refusal | null {
    if (this.count === 0) return 'empty';
    const to = normalise(index, this.count);
    if (this.inMotion) return 'in-motion';
    for (const other of this.linked) {
      if (other.inMotion && other.target !== to) return 'linked-in-motion';
    }
    this.move(to);
    for (const other of this.linked) if (other.index !== to) other.move(to);
    return null;
  }

  /** One slide on; without looping, the last slide reports reached-end and stays. */
  next(): Refusal | null {
    if (!this.loop && this.index === this.count - 1) return this.refuse('reached-end');
    return this.go(this.index + 1);
  }

  /** One slide back; without looping, the first slide reports reached-beginning and stays. */
  previous(): Refusal | null {
    if (!this.loop && this.index === 0) return this.refuse('reached-beginning');
    return this.go(this.index - 1);
  }

  /**
   * Now `count` slides, on slide `index` (clamped to them), without a change event: the
   * caller redraws (a carousel whose rows changed with the window's width).
   */
  resize(count: number, index: number): void {
    this.count = Math.max(0, count);
    this.index = Math.min(Math.max(0, Math.trunc(index)), Math.max(0, this.count - 1));
    this.target = this.index;
  }

  /** The running transition has finished. */
  settle(): void {
    this.inMotion = false;
  }

  private move(to: number): void {
    const previous = this.index;
    if (to === previous) return;
    this.index = to;
    this.target = to;
    this.inMotion = true;
    this.emit({ type: 'change', index: to, previous });
  }

  private refuse(reason: 'reached-end' | 'reached-beginning'): Refusal {
    if (this.count > 0) this.emit({ type: reason });
    return reason;
  }

  private emit(event: SlideEvent): void {
    this.listeners.forEach((listener) => listener(event));
  }
}
