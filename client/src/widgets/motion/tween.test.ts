import { afterEach, describe, expect, it, vi } from 'vitest';

import { easeOutSine, scrollDuration, scrollToElement, tween } from './tween';

/** A window whose frames the test plays, `ms` apart, with motion on or off. */
function frames(reduce = false) {
  let now = 0;
  const queue: FrameRequestCallback[] = [];
  const scrolls: number[] = [];
  const win = {
    matchMedia: () => ({ matches: reduce }),
    location: { search: '' },
    performance: { now: () => now },
    requestAnimationFrame: (cb: FrameRequestCallback) => queue.push(cb),
    scrollY: 200,
    scrollTo: (_x: number, y: number) => scrolls.push(y),
  } as unknown as Window;
  const play = (ms: number) => {
    now += ms;
    const due = queue.splice(0);
    due.forEach((cb) => cb(now));
  };
  return { win, play, scrolls, pending: () => queue.length };
}

describe('the tween', () => {
  afterEach(() => vi.restoreAllMocks());

  it('requires a function and a finite duration (001 §5)', () => {
    const { win } = frames();
    expect(() => tween(undefined as unknown as () => void, { win })).toThrow('The tween requires a function.');
    expect(() => tween(() => {}, { duration: Number.POSITIVE_INFINITY, win })).toThrow(TypeError);
    expect(() => tween(() => {}, { duration: Number.NaN, win })).toThrow('The tween requires a finite duration.');
  });

  it('lasts 300 ms by default, eased with easeOutSine, ending on 1', async () => {
    const { win, play, pending } = frames();
    const seen: number[] = [];
    const done = tween((p) => seen.push(p), { win });
    play(0);
    play(150);
    expect(seen.at(-1)).toBeCloseTo(Math.sin(Math.PI / 4));
    play(149);
    expect(seen.at(-1)).toBeLessThan(1);
    play(1);
    await done;
    expect(seen.at(-1)).toBe(1);
    expect(pending()).toBe(0);
    expect(easeOutSine(0.5)).toBeCloseTo(Math.SQRT1_2);
  });

  it('jumps to the end at once without motion', () => {
    const { win } = frames(true);
    const seen: number[] = [];
    void tween((p) => seen.push(p), { win });
    expect(seen).toEqual([1]);
  });
});

describe('the page scroll', () => {
  it('takes the distance in ms, clamped to the min and max, 50 by default (001 §9)', () => {
    expect(scrollDuration(400)).toBe(50);
    expect(scrollDuration(10)).toBe(50);
    expect(scrollDuration(-120, 20, 200)).toBe(120);
    expect(scrollDuration(5, 20, 200)).toBe(20);
    expect(scrollDuration(900, 20, 200)).toBe(200);
    expect(() => scrollDuration(10, Number.NaN, 50)).toThrow('Scroll durations must be finite numbers.');
    expect(() => scrollDuration(10, 50, Number.POSITIVE_INFINITY)).toThrow(TypeError);
  });

  it('stops 30 px above the element', async () => {
    const { win, play, scrolls } = frames();
    const el = { getBoundingClientRect: () => ({ top: 530 }) } as unknown as Element;
    const done = scrollToElement(el, { win });
    play(0);
    play(50);
    await done;
    expect(scrolls.at(-1)).toBe(200 + 530 - 30);
  });
});
