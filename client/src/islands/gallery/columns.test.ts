import { describe, expect, it, vi } from 'vitest';
import { autoColumnCount, columnBehavior } from './columns';
import { parseGalleryData } from './data';
import { mount } from './index';
import { useGalleryTestPage } from './test-page';

useGalleryTestPage();

/** A gallery of `design` with `count` slides whose element is `width()` px wide. */
function gallery(design: string, count: number, width: () => number): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = `<ul class="gallery gallery--${design}">${'<li><figure><img alt=""></figure></li>'.repeat(count)}</ul>`;
  Object.defineProperty(el, 'clientWidth', { get: width });
  document.body.append(el);
  return el;
}

describe('the auto-columns designs (001 §9)', () => {
  it('default to columns 250 px wide, no gutter, the count rounded down', () => {
    const options = parseGalleryData({ design: 'autocolumns' })!;
    expect([options.columnWidth, options.gutter, options.columnBehavior]).toEqual([250, 0, 'min']);
    expect(autoColumnCount(1000, options.columnWidth, options.gutter, options.columnBehavior)).toBe(4);
    expect(autoColumnCount(999, 250, 0, 'min')).toBe(3);
  });

  it('round the count up for any behaviour other than min', () => {
    expect(columnBehavior('min')).toBe('min');
    expect(columnBehavior(undefined)).toBe('min');
    expect(columnBehavior('max')).toBe('ceil');
    expect(parseGalleryData({ design: 'autogrid', behavior: 'max' })?.columnBehavior).toBe('ceil');
    expect(autoColumnCount(999, 250, 0, 'ceil')).toBe(4);
    expect(autoColumnCount(1001, 250, 0, 'ceil')).toBe(5);
    expect(autoColumnCount(1000, 300, 0, 'min')).toBe(3);
    expect(autoColumnCount(1000, 300, 0, 'ceil')).toBe(4);
    // The gutter counts between columns: 3 × 300 + 2 × 20 = 940 fit in 1000.
    expect(autoColumnCount(1000, 300, 20, 'min')).toBe(3);
    expect(autoColumnCount(1000, 300, 20, 'ceil')).toBe(4);
    expect(autoColumnCount(100, 250, 0, 'min')).toBe(1);
    expect(autoColumnCount(0, 250, 0, 'ceil')).toBe(1);
  });

  it('leave the server layout alone with min, and set the rounded-up count with another behaviour', () => {
    let width = 1000;
    const floor = gallery('autogrid', 6, () => width);
    mount(floor, { design: 'autogrid', columnWidth: 300 });
    expect(floor.querySelector('ul')!.getAttribute('style')).toBeNull();

    const grid = gallery('autogrid', 6, () => width);
    mount(grid, { design: 'autogrid', columnWidth: 300, behavior: 'max' });
    const gridList = grid.querySelector('ul')!;
    expect(gridList.dataset.columns).toBe('4');
    expect(gridList.style.gridTemplateColumns.replace(/ /g, '')).toBe('repeat(4,minmax(0,1fr))');

    const columns = gallery('autocolumns', 6, () => width);
    mount(columns, { design: 'autocolumns', behavior: 'max' });
    expect(columns.querySelector('ul')!.dataset.columns).toBe('4');
    expect(columns.querySelector('ul')!.getAttribute('style')).toContain('columns: 4');

    // The count follows the window: 250 ms after the last resize (emitter 100 + debounce 150).
    width = 520;
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(249);
    expect(gridList.dataset.columns).toBe('4');
    vi.advanceTimersByTime(1);
    expect(gridList.dataset.columns).toBe('2');
    expect(columns.querySelector('ul')!.dataset.columns).toBe('3');
  });
});
