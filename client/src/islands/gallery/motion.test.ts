import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Autoplay, carouselControls, carouselSlidesPerRow, lockAxis, motionAllowed, swipeDirection } from './motion';

describe('carousel rows', () => {
  it('shows fewer slides per row on narrow containers', () => {
    expect(carouselSlidesPerRow(3, 1000)).toBe(3);
    expect(carouselSlidesPerRow(5, 1000)).toBe(5);
    expect(carouselSlidesPerRow(5, 723)).toBe(3);
    expect(carouselSlidesPerRow(2, 700)).toBe(2);
    expect(carouselSlidesPerRow(5, 479)).toBe(2);
    expect(carouselSlidesPerRow(1, 300)).toBe(1);
    expect(carouselSlidesPerRow(0, 1000)).toBe(3);
  });

  it('disables controls at the first and last group and hides them when all slides fit', () => {
    expect(carouselControls(7, 3, 0)).toEqual({ groups: 3, hidden: false, previousDisabled: true, nextDisabled: false });
    expect(carouselControls(7, 3, 2)).toEqual({ groups: 3, hidden: false, previousDisabled: false, nextDisabled: true });
    expect(carouselControls(3, 3, 0).hidden).toBe(true);
  });
});

describe('swipes', () => {
  const at = (x: number, y: number, t: number) => ({ x, y, t });
  it('counts 50 px within 250 ms', () => {
    expect(swipeDirection(at(200, 0, 0), at(150, 0, 250))).toBe('next');
    expect(swipeDirection(at(200, 0, 0), at(250, 5, 100))).toBe('previous');
    expect(swipeDirection(at(200, 0, 0), at(151, 0, 100))).toBeNull();
    expect(swipeDirection(at(200, 0, 0), at(100, 0, 251))).toBeNull();
    expect(swipeDirection(at(200, 0, 0), at(140, 80, 100))).toBeNull();
  });

  it('locks the axis after 10 px', () => {
    expect(lockAxis(at(0, 0, 0), at(8, 6, 10))).toBeNull();
    expect(lockAxis(at(0, 0, 0), at(11, 4, 10))).toBe('x');
    expect(lockAxis(at(0, 0, 0), at(3, -12, 10))).toBe('y');
  });
});

describe('autoplay', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('advances every 5,000 ms and pauses for hover, focus and the pause control', () => {
    const advance = vi.fn();
    const autoplay = new Autoplay(advance, true);
    vi.advanceTimersByTime(5000);
    expect(advance).toHaveBeenCalledTimes(1);
    autoplay.pause('hover');
    autoplay.pause('control');
    vi.advanceTimersByTime(20_000);
    expect(advance).toHaveBeenCalledTimes(1);
    autoplay.resume('hover');
    expect(autoplay.running).toBe(false);
    autoplay.resume('control');
    vi.advanceTimersByTime(5000);
    expect(advance).toHaveBeenCalledTimes(2);
    autoplay.stop();
    vi.advanceTimersByTime(10_000);
    expect(advance).toHaveBeenCalledTimes(2);
  });

  it('never runs when motion is off', () => {
    const advance = vi.fn();
    const autoplay = new Autoplay(advance, false);
    vi.advanceTimersByTime(60_000);
    expect(advance).not.toHaveBeenCalled();
    expect(autoplay.running).toBe(false);
  });

  it('is off with nomotion=true or a reduced-motion preference', () => {
    window.history.replaceState(null, '', '/gallery?nomotion=true');
    expect(motionAllowed(window)).toBe(false);
    window.history.replaceState(null, '', '/gallery');
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('reduce') }));
    expect(motionAllowed(window)).toBe(false);
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    expect(motionAllowed(window)).toBe(true);
  });
});
