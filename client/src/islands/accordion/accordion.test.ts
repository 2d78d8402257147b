import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCORDION_ANIMATION_MS, Accordion } from './accordion';
import { PANEL_PATH_EVENT, mount } from './index';

const MARKUP = [0, 1, 2]
  .map((i) => `<details><summary>Item ${i}</summary><div class="accordion-panel"><p>Panel ${i}</p></div></details>`)
  .join('');

function block(): HTMLElement {
  document.body.innerHTML = `<section>${MARKUP}</section>`;
  const el = document.querySelector('section')!;
  // jsdom has no Web Animations: a no-op animation keeps the timing under the fake clock.
  el.querySelectorAll<HTMLElement>('.accordion-panel').forEach((p) => (p.animate = vi.fn() as never));
  return el;
}
const click = (el: HTMLElement, i: number) => el.querySelectorAll('summary')[i]!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
const opened = (el: HTMLElement) => [...el.querySelectorAll('details')].flatMap((d, i) => (d.open ? [i] : []));

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the accordion', () => {
  it('starts with the first item expanded when asked', () => {
    const el = block();
    const a = new Accordion(el, { allowMultipleOpen: false, isFirstItemExpanded: true, motion: true });
    expect(a.openItems()).toEqual([0]);
    expect(el.querySelector('details')!.dataset.isOpen).toBe('true');
    new Accordion(block(), { allowMultipleOpen: false, isFirstItemExpanded: false, motion: true });
    expect(opened(document.querySelector('section')!)).toEqual([]);
  });

  it('keeps one item open at a time, animating for 250 ms', () => {
    const el = block();
    const a = new Accordion(el, { allowMultipleOpen: false, isFirstItemExpanded: true, motion: true });
    click(el, 1);
    expect(a.openItems()).toEqual([1]);
    expect(a.busy).toBe(true);
    vi.advanceTimersByTime(ACCORDION_ANIMATION_MS - 1);
    expect(opened(el)).toEqual([0, 1]);
    vi.advanceTimersByTime(1);
    expect(a.busy).toBe(false);
    expect(opened(el)).toEqual([1]);
    expect(ACCORDION_ANIMATION_MS).toBe(250);
  });

  it('ignores clicks while an item animates', () => {
    const el = block();
    const a = new Accordion(el, { allowMultipleOpen: true, isFirstItemExpanded: false, motion: true });
    click(el, 0);
    click(el, 1);
    click(el, 0);
    expect(a.openItems()).toEqual([0]);
    vi.advanceTimersByTime(250);
    click(el, 1);
    vi.advanceTimersByTime(250);
    expect(opened(el)).toEqual([0, 1]);
  });

  it('opens and closes at once without motion', () => {
    const el = block();
    const a = new Accordion(el, { allowMultipleOpen: false, isFirstItemExpanded: false, motion: false });
    click(el, 2);
    expect(a.busy).toBe(false);
    expect(opened(el)).toEqual([2]);
    click(el, 2);
    expect(opened(el)).toEqual([]);
  });

  it('selects items by panel path', () => {
    const el = block();
    const a = new Accordion(el, { allowMultipleOpen: true, isFirstItemExpanded: false, motion: false });
    a.selectPath('accordionItems/2/title');
    expect(a.openItems()).toEqual([2]);
    a.selectPath('description');
    expect(a.openItems()).toEqual([0]);
    a.selectPath('title');
    expect(a.openItems()).toEqual([]);
  });

  it('mounts from block data and listens for panel paths', () => {
    const el = block();
    vi.stubGlobal('matchMedia', () => ({ matches: true }));
    mount(el, { allowMultipleOpen: false, isFirstItemExpanded: true });
    expect(opened(el)).toEqual([0]);
    el.dispatchEvent(new CustomEvent(PANEL_PATH_EVENT, { detail: 'accordionItems/1' }));
    expect(opened(el)).toEqual([1]);
  });
});
