import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOOLTIP_DELAY_MS, attachTooltip, tooltipPosition } from './tooltip';

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML = '<button id="t">Gift wrap</button>';
});
afterEach(() => vi.useRealTimers());

const pointer = (type: string, x = 100, y = 100) => {
  const e = new MouseEvent(type, { clientX: x, clientY: y });
  return e;
};

describe('tooltips', () => {
  it('sit 15 px from the pointer, at least 20 px inside the window', () => {
    expect(tooltipPosition(100, 100, 250, 40, 1000, 800)).toEqual({ left: 115, top: 115 });
    expect(tooltipPosition(900, 790, 250, 40, 1000, 800)).toEqual({ left: 730, top: 740 });
    expect(tooltipPosition(-50, -50, 250, 40, 1000, 800)).toEqual({ left: 20, top: 20 });
  });

  it('show after 1200 ms of hover, 250 px wide, and hide on leave', () => {
    const target = document.getElementById('t')!;
    attachTooltip(target, 'Wrapped in brown paper');
    const tip = document.getElementById(target.getAttribute('aria-describedby')!)!;
    expect(tip.getAttribute('role')).toBe('tooltip');
    target.dispatchEvent(pointer('pointerenter'));
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS - 1);
    expect(tip.hidden).toBe(true);
    vi.advanceTimersByTime(1);
    expect(tip.hidden).toBe(false);
    expect(tip.style.width).toBe('250px');
    expect(tip.style.left).toBe('115px');
    target.dispatchEvent(pointer('pointerleave'));
    expect(tip.hidden).toBe(true);
  });

  it('a leave before the delay cancels it; focus shows it and Escape hides it', () => {
    const target = document.getElementById('t')!;
    const remove = attachTooltip(target, 'Wrapped');
    const tip = document.querySelector<HTMLElement>('[role="tooltip"]')!;
    target.dispatchEvent(pointer('pointerenter'));
    vi.advanceTimersByTime(600);
    target.dispatchEvent(pointer('pointerleave'));
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS);
    expect(tip.hidden).toBe(true);
    target.dispatchEvent(new FocusEvent('focus'));
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS);
    expect(tip.hidden).toBe(false);
    target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(tip.hidden).toBe(true);
    remove();
    expect(document.querySelector('[role="tooltip"]')).toBeNull();
    expect(target.hasAttribute('aria-describedby')).toBe(false);
  });
});
