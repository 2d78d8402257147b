// The galleries' one resize emitter (001 §9): a window's resize and orientation change
// events are gathered and emitted once, 100 ms after the last of them (an emitter made
// without a timeout waits 300 ms). Each gallery part that follows the width (carousel rows,
// a slider's centred slide, slideshow captions) subscribes with the resize debounce, 150 ms
// by default: it runs that long after the emitter's last emission. So a carousel redraws
// 250 ms after the window stops changing, however many galleries the page has, with one
// pair of window listeners between them.

/** The emitter's own default timeout (001 §9 "default 300"). */
export const RESIZE_EMITTER_DEFAULT_MS = 300;
/** The galleries' emitter timeout (001 §9). */
export const RESIZE_EMITTER_MS = 100;
/** A subscriber's default debounce after the emitter (001 §9). */
export const RESIZE_DEBOUNCE_MS = 150;

type Listener = () => void;

/** Gathers a window's resize and orientation changes into one emission after a quiet `timeoutMs`. */
export class ResizeEmitter {
  private readonly listeners = new Set<Listener>();
  private timer: number | undefined;
  private readonly changed = () => {
    this.win.clearTimeout(this.timer);
    this.timer = this.win.setTimeout(() => this.listeners.forEach((listener) => listener()), this.timeoutMs);
  };

  constructor(
    private readonly win: Window,
    /** How long the window must be still before the emitter emits. */
    readonly timeoutMs = RESIZE_EMITTER_DEFAULT_MS,
  ) {}

  /** Calls `listener` after each emission; returns a function that unsubscribes it. */
  subscribe(listener: Listener): () => void {
    if (this.listeners.size === 0) {
      this.win.addEventListener('resize', this.changed);
      this.win.addEventListener('orientationchange', this.changed);
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size > 0) return;
      this.win.clearTimeout(this.timer);
      this.win.removeEventListener('resize', this.changed);
      this.win.removeEventListener('orientationchange', this.changed);
    };
  }
}

const emitters = new WeakMap<Window, ResizeEmitter>();

/** The galleries' emitter of `win` (one per window, made on first use). */
export function galleryResizeEmitter(win: Window): ResizeEmitter {
  let emitter = emitters.get(win);
  if (!emitter) {
    emitter = new ResizeEmitter(win, RESIZE_EMITTER_MS);
    emitters.set(win, emitter);
  }
  return emitter;
}

/**
 * Runs `redraw` `debounceMs` after the galleries' emitter last emitted; returns a function
 * that stops it.
 */
export function onGalleryResize(win: Window, redraw: () => void, debounceMs = RESIZE_DEBOUNCE_MS): () => void {
  let timer: number | undefined;
  const unsubscribe = galleryResizeEmitter(win).subscribe(() => {
    win.clearTimeout(timer);
    timer = win.setTimeout(redraw, debounceMs);
  });
  return () => {
    win.clearTimeout(timer);
    unsubscribe();
  };
}
