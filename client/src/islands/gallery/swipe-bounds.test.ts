// Tests of the newSwipe boundaries and snap points (001 §5) as pure rules.
import { describe, expect, it, vi } from 'vitest';
import { namedEnum } from '../../spec-pins/fixtures';
import { BOUNDARY_WORDS, boundedOffset, edgePassed, settleOffset, snapPoints, swipeAllowed, swipeBoundaries } from './swipe-bounds';

const hard = { start: 'hard', end: 'hard' } as const;
const inertial = { start: 'inertial', end: 'inertial' } as const;
const open = { start: 'none', end: 'none' } as const;

describe('newSwipe block data', () => {
  it('knows exactly the spec boundary words, none, hard and inertial', () => {
    expect(BOUNDARY_WORDS).toEqual(namedEnum('NewSwipeBoundary'));
  });

  it('reads each end of the boundaries, an end not given having none', () => {
    expect(swipeBoundaries({ start: 'hard', end: 'inertial' })).toEqual({ start: 'hard', end: 'inertial' });
    expect(swipeBoundaries({ end: 'hard' })).toEqual({ start: 'none', end: 'hard' });
    expect(swipeBoundaries(undefined)).toEqual(open);
  });

  it('skips invalid boundaries with a warning and keeps none at both ends', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const bad of ['hard', { start: 'soft' }, { middle: 'hard' }, ['hard', 'hard']]) {
      expect(swipeBoundaries(bad)).toEqual(open);
    }
    expect(warn).toHaveBeenCalledTimes(4);
    warn.mockRestore();
  });

  it('reads snap points ending with % as fractions of the slide, and none as none', () => {
    expect(snapPoints(['50%', '0%', ' 25 %'])).toEqual([0, 0.25, 0.5]);
    expect(snapPoints('none')).toEqual([]);
    expect(snapPoints(undefined)).toEqual([]);
  });

  it('skips snap points that do not end with % (or are not 0% to 100%) with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const bad of ['half', ['50'], ['150%'], ['-10%'], ['x%'], 50, ['50%', 5]]) expect(snapPoints(bad)).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(7);
    warn.mockRestore();
  });
});

describe('a drag past the ends', () => {
  it('passes the start dragging right on the first slide and the end dragging left on the last', () => {
    expect(edgePassed(40, 0, 3)).toBe('start');
    expect(edgePassed(-40, 2, 3)).toBe('end');
    expect(edgePassed(-40, 0, 3)).toBeNull();
    expect(edgePassed(40, 1, 3)).toBeNull();
  });

  it('stops the slide at a hard edge, slows it at an inertial one and lets it go on without one', () => {
    expect(boundedOffset(80, 0, 3, hard)).toBe(0);
    expect(boundedOffset(-80, 2, 3, hard)).toBe(0);
    expect(boundedOffset(-80, 0, 3, hard)).toBe(-80);
    expect(boundedOffset(100, 0, 3, inertial)).toBeCloseTo(30);
    expect(Math.abs(boundedOffset(-100, 2, 3, inertial))).toBeLessThan(100);
    expect(boundedOffset(100, 0, 3, open)).toBe(100);
  });

  it('lets a swipe wrap only past an end without a boundary', () => {
    expect(swipeAllowed('next', 2, 3, hard)).toBe(false);
    expect(swipeAllowed('previous', 0, 3, inertial)).toBe(false);
    expect(swipeAllowed('next', 2, 3, open)).toBe(true);
    expect(swipeAllowed('next', 0, 3, hard)).toBe(true);
    expect(swipeAllowed('previous', 0, 3, { start: 'none', end: 'hard' })).toBe(true);
  });
});

describe('where a released drag settles', () => {
  it('goes back to its place without snap points', () => {
    expect(settleOffset(-120, 400, [], 1, 3, open)).toBe(0);
  });

  it('settles at the nearest snap point on the side it was dragged to', () => {
    expect(settleOffset(-120, 400, [0.5], 1, 3, open)).toBe(-200); // 30 % of the slide: nearer 50 % than 0 %
    expect(settleOffset(-80, 400, [0.5], 1, 3, open)).toBe(0); // 20 %: nearer 0 %
    expect(settleOffset(90, 400, [0.25, 0.5], 1, 3, open)).toBe(100);
  });

  it('springs back past a hard or inertial edge whatever the snap points', () => {
    expect(settleOffset(30, 400, [0.5], 0, 3, inertial)).toBe(0);
    expect(settleOffset(-150, 400, [0.5], 2, 3, hard)).toBe(0);
    expect(settleOffset(-150, 400, [0.5], 2, 3, open)).toBe(-200);
  });
});
