import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Marquee } from './marquee';
import { MIN_REGION_WIDTH, RERENDER_DEBOUNCE_MS, marqueeProps, shouldRun, waveOffset, waveSegmentWidth } from './props';

/** A stand-in for the Web Animations API, which jsdom lacks. */
function fakeAnimate() {
  const made: Array<{ playState: string; play(): void; pause(): void; cancel(): void }> = [];
  HTMLElement.prototype.animate = function animate() {
    const a = {
      playState: 'idle',
      play() {
        this.playState = 'running';
      },
      pause() {
        this.playState = 'paused';
      },
      cancel() {
        this.playState = 'idle';
      },
    };
    made.push(a);
    return a as unknown as Animation;
  };
  return made;
}

function setup(data: Record<string, unknown> = {}, width = 600, reduced = false) {
  document.body.innerHTML = '<p class="marquee">Fresh bread daily</p>';
  const root = document.querySelector<HTMLElement>('.marquee')!;
  Object.defineProperty(root, 'clientWidth', { value: width, configurable: true });
  let view: (inView: boolean) => void = () => {};
  let reducedMotion = reduced;
  const made = fakeAnimate();
  const marquee = new Marquee(root, marqueeProps({ text: 'Fresh bread daily', ...data }), {
    reducedMotion: () => reducedMotion,
    observeView: (_el, onChange) => {
      view = onChange;
      return () => {};
    },
  });
  return { root, marquee, made, setView: (v: boolean) => view(v), setReduced: (r: boolean) => (reducedMotion = r) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('marquee props', () => {
  it('have the defaults of spec 001 §3', () => {
    expect(marqueeProps({ text: 'x' })).toEqual({
      text: 'x',
      waveFrequency: 1,
      waveIntensity: 0,
      animationDirection: 'left',
      animationSpeed: 1,
      pausedOnHover: false,
    });
  });

  it('run only in view, with motion, at 50 px or wider', () => {
    expect(shouldRun({ inView: true, reducedMotion: false, width: MIN_REGION_WIDTH })).toBe(true);
    expect(shouldRun({ inView: true, reducedMotion: false, width: 49 })).toBe(false);
    expect(shouldRun({ inView: false, reducedMotion: false, width: 500 })).toBe(false);
    expect(shouldRun({ inView: true, reducedMotion: true, width: 500 })).toBe(false);
  });

  it('shape a wave 250 to 1000 px wide, flat at intensity 0', () => {
    expect([0.5, 1, 2, 4, 10].map(waveSegmentWidth)).toEqual([1000, 1000, 500, 250, 250]);
    expect(waveOffset(250, { waveFrequency: 1, waveIntensity: 0 })).toBe(0);
    expect(waveOffset(250, { waveFrequency: 1, waveIntensity: 8 })).toBeCloseTo(8);
  });
});

describe('the marquee', () => {
  it('keeps the text readable once and moves only while in view', () => {
    const { root, marquee, setView } = setup();
    expect(root.querySelector('.visually-hidden')?.textContent).toBe('Fresh bread daily');
    expect(root.querySelector('.marquee-widget__track')?.getAttribute('aria-hidden')).toBe('true');
    expect(marquee.running).toBe(false);
    setView(true);
    expect(marquee.running).toBe(true);
    setView(false);
    expect(marquee.running).toBe(false);
  });

  it('stands still under reduced motion and in a narrow region', () => {
    const reduced = setup({}, 600, true);
    reduced.setView(true);
    expect(reduced.marquee.running).toBe(false);
    reduced.setReduced(false);
    reduced.marquee.update();
    expect(reduced.marquee.running).toBe(true);
    const narrow = setup({}, 40);
    narrow.setView(true);
    expect(narrow.marquee.running).toBe(false);
  });

  it('pauses on hover when configured', () => {
    const { root, marquee, setView } = setup({ pausedOnHover: true });
    setView(true);
    root.dispatchEvent(new Event('pointerenter'));
    expect(marquee.running).toBe(false);
    root.dispatchEvent(new Event('pointerleave'));
    expect(marquee.running).toBe(true);
  });

  it('renders again 1000 ms after the last resize', () => {
    const { marquee, made, setView } = setup();
    setView(true);
    const before = made.length;
    marquee.resized();
    vi.advanceTimersByTime(RERENDER_DEBOUNCE_MS - 1);
    marquee.resized();
    vi.advanceTimersByTime(RERENDER_DEBOUNCE_MS - 1);
    expect(made.length).toBe(before);
    vi.advanceTimersByTime(1);
    expect(made.length).toBe(before + 1);
    expect(marquee.running).toBe(true);
  });
});
