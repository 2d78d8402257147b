import { describe, expect, it } from 'vitest';
import { KEN_BURNS_ZOOM, focalOrigin, moveDirection, newSwipeDuration, transitionNamed, transitionTiming } from './transitions';

describe('slideshow transitions', () => {
  it('knows the five transitions by any spelling and throws on others', () => {
    expect(transitionNamed(undefined)).toBe('fade');
    expect(transitionNamed('fade')).toBe('fade');
    expect(transitionNamed('ken-burns')).toBe('kenburns');
    expect(transitionNamed('kenBurns')).toBe('kenburns');
    expect(transitionNamed('scroll')).toBe('scroll');
    expect(transitionNamed('scroll-vertical')).toBe('scroll-vertical');
    expect(transitionNamed('swipe')).toBe('swipe');
    expect(transitionNamed('newSwipe')).toBe('newswipe');
    expect(transitionNamed('new-swipe')).toBe('newswipe');
    expect(() => transitionNamed('wobble')).toThrow('could not find transition named wobble');
    expect(KEN_BURNS_ZOOM).toBe(1.075);
  });

  it('fades in over the speed and out over 1.2 times it', () => {
    const options = { speedMs: 1000, motion: true, windowWidth: 1200 };
    expect(transitionTiming('fade', options)).toEqual({ inMs: 1000, outMs: 1200, settleMs: 1200 });
    expect(transitionTiming('kenburns', options)).toEqual({ inMs: 1000, outMs: 1200, settleMs: 1200 });
    expect(transitionTiming('scroll', options)).toEqual({ inMs: 1000, outMs: 1000, settleMs: 1000 });
    expect(transitionTiming('swipe', options)).toEqual({ inMs: 280, outMs: 280, settleMs: 280 });
  });

  it('takes no time at all without motion', () => {
    for (const t of ['fade', 'kenburns', 'scroll', 'swipe', 'newswipe'] as const) {
      expect(transitionTiming(t, { speedMs: 1000, motion: false, windowWidth: 1200 }).settleMs).toBe(0);
    }
  });

  it('clamps newSwipe durations to 0.2-0.5 s, 0.3-0.5 s from 767 px wide', () => {
    expect(newSwipeDuration(1200)).toBe(500);
    expect(newSwipeDuration(1200, { remainingPx: 600, velocity: 2 })).toBe(300);
    expect(newSwipeDuration(1200, { remainingPx: 800, velocity: 2 })).toBe(400);
    expect(newSwipeDuration(1200, { remainingPx: 5000, velocity: 1 })).toBe(500);
    expect(newSwipeDuration(766, { remainingPx: 100, velocity: 2 })).toBe(200);
    expect(newSwipeDuration(767, { remainingPx: 100, velocity: 2 })).toBe(300);
    expect(newSwipeDuration(400, { remainingPx: 100, velocity: 0 })).toBe(500);
    expect(transitionTiming('newswipe', { speedMs: 1000, motion: true, windowWidth: 400, fling: { remainingPx: 50, velocity: 1 } }).settleMs).toBe(200);
  });

  it('moves one step on as next, one back as previous, wrapping at the ends', () => {
    expect(moveDirection(0, 1, 5)).toBe('next');
    expect(moveDirection(4, 0, 5)).toBe('next');
    expect(moveDirection(0, 4, 5)).toBe('previous');
    expect(moveDirection(3, 2, 5)).toBe('previous');
    expect(moveDirection(0, 2, 5)).toBe('next');
    expect(moveDirection(3, 1, 5)).toBe('previous');
    expect(moveDirection(1, 0, 2)).toBe('next');
  });

  it('zooms ken burns slides from their focal point', () => {
    expect(focalOrigin('0.3,0.6')).toBe('30% 60%');
    expect(focalOrigin(null)).toBe('50% 50%');
    expect(focalOrigin('2,0.5')).toBe('50% 50%');
    expect(focalOrigin('0.5')).toBe('50% 50%');
    expect(focalOrigin('0.1,0.2,0.3')).toBe('50% 50%');
  });
});
