// The marquee (spec 001 §4): the text scrolls sideways, optionally on a wave, only while the
// block is in view, motion is allowed (no `prefers-reduced-motion`, no `?nomotion=true`) and
// the region is at least 50 px wide; otherwise it stands still. It pauses on hover when
// configured, and renders again 1,000 ms after the last resize. Screen readers get the text
// once; the moving copies are hidden from them.
import { BASE_SPEED_PX_PER_S, RERENDER_DEBOUNCE_MS, shouldRun, waveOffset, type MarqueeProps } from './props';
import './marquee.css';

/** What the marquee watches. */
export interface MarqueeEnv {
  /** Whether motion is reduced now. */
  reducedMotion(): boolean;
  /** Calls back with visibility changes; gives a stop function. */
  observeView(el: Element, onChange: (inView: boolean) => void): () => void;
}

/** A running marquee in one block. */
export class Marquee {
  private inView = false;
  private animation: Animation | null = null;
  private track: HTMLElement;
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;
  private hovered = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly props: MarqueeProps,
    private readonly env: MarqueeEnv,
  ) {
    root.classList.add('marquee-widget');
    const label = root.ownerDocument.createElement('span');
    label.className = 'visually-hidden';
    label.textContent = props.text;
    this.track = root.ownerDocument.createElement('div');
    this.track.className = 'marquee-widget__track';
    this.track.setAttribute('aria-hidden', 'true');
    root.replaceChildren(label, this.track);
    this.render();
    env.observeView(root, (inView) => {
      this.inView = inView;
      this.update();
    });
    root.addEventListener('pointerenter', () => this.hover(true));
    root.addEventListener('pointerleave', () => this.hover(false));
  }

  /** Whether the text is moving now. */
  get running(): boolean {
    return this.animation?.playState === 'running';
  }

  /** Schedules a re-render, 1,000 ms after the last call. */
  resized(): void {
    clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => this.render(), RERENDER_DEBOUNCE_MS);
  }

  /** Starts or stops the motion to match the conditions. */
  update(): void {
    const run =
      shouldRun({ inView: this.inView, reducedMotion: this.env.reducedMotion(), width: this.root.clientWidth }) &&
      !(this.props.pausedOnHover && this.hovered);
    if (run) this.animation?.play();
    else this.animation?.pause();
  }

  private hover(on: boolean): void {
    this.hovered = on;
    this.update();
  }

  /** Builds two copies of the text (characters placed on the wave) and their animation. */
  render(): void {
    const doc = this.root.ownerDocument;
    const copy = () => {
      const span = doc.createElement('span');
      span.className = 'marquee-widget__copy';
      let x = 0;
      for (const char of `${this.props.text}\u00a0\u00a0\u00a0`) {
        const c = doc.createElement('span');
        c.textContent = char;
        const dy = waveOffset(x, this.props);
        if (dy !== 0) c.style.transform = `translateY(${dy.toFixed(1)}px)`;
        x += 12;
        span.append(c);
      }
      return span;
    };
    this.track.replaceChildren(copy(), copy());
    this.animation?.cancel();
    const width = (this.track.firstElementChild as HTMLElement | null)?.offsetWidth || 12 * this.props.text.length || 1;
    const distance = this.props.animationDirection === 'left' ? -width : width;
    const from = this.props.animationDirection === 'left' ? 0 : -width;
    this.animation =
      typeof this.track.animate === 'function'
        ? this.track.animate(
            [{ transform: `translateX(${from}px)` }, { transform: `translateX(${from + distance}px)` }],
            { duration: (width / (BASE_SPEED_PX_PER_S * this.props.animationSpeed)) * 1000, iterations: Infinity },
          )
        : null;
    this.animation?.pause();
    this.update();
  }
}
