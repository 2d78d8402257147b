import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount } from './index';
import { parseMenuTabs } from './parse';

const DATA = {
  tabs: [
    { title: 'Breakfast', items: [{ name: 'Porridge', description: 'Oats, honey', price: '7' }] },
    { title: 'Lunch', items: [{ name: 'Soup', description: 'Of the day', price: '9' }] },
    { title: 'Dinner', items: [{ name: 'Stew', description: '', price: '14' }] },
  ],
};

function render(data: unknown = DATA): HTMLElement {
  const el = document.createElement('section');
  el.innerHTML = '<h3>Breakfast</h3><ul><li>Porridge</li></ul>';
  document.body.append(el);
  act(() => mount(el, data));
  return el;
}

const tabs = (el: HTMLElement) => [...el.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
const panels = (el: HTMLElement) => [...el.querySelectorAll<HTMLElement>('[role="tabpanel"]')];
const selected = (el: HTMLElement) => tabs(el).filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.textContent);
const visiblePanels = (el: HTMLElement) => panels(el).filter((p) => !p.hidden);

function press(target: HTMLElement, key: string) {
  act(() => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
  });
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('menu tabs', () => {
  it('start on the first tab, with one tab selected and one panel shown', () => {
    const el = render();
    expect(el.querySelector('[role="tablist"]')).not.toBeNull();
    expect(tabs(el).map((t) => t.textContent)).toEqual(['Breakfast', 'Lunch', 'Dinner']);
    expect(selected(el)).toEqual(['Breakfast']);
    expect(visiblePanels(el)).toHaveLength(1);
    expect(visiblePanels(el)[0]!.textContent).toContain('Porridge');
    expect(el.querySelector('h3')).toBeNull();
  });

  it('link each tab to its panel', () => {
    const el = render();
    tabs(el).forEach((tab, index) => {
      const panel = document.getElementById(tab.getAttribute('aria-controls')!)!;
      expect(panel).toBe(panels(el)[index]);
      expect(panel.getAttribute('aria-labelledby')).toBe(tab.id);
    });
    expect(tabs(el).map((t) => t.tabIndex)).toEqual([0, -1, -1]);
  });

  it('move right and left with the arrows, wrapping around', () => {
    const el = render();
    press(tabs(el)[0]!, 'ArrowRight');
    expect(selected(el)).toEqual(['Lunch']);
    expect(document.activeElement).toBe(tabs(el)[1]);
    press(tabs(el)[1]!, 'ArrowRight');
    press(tabs(el)[2]!, 'ArrowRight');
    expect(selected(el)).toEqual(['Breakfast']);
    expect(visiblePanels(el)[0]!.textContent).toContain('Porridge');
    press(tabs(el)[0]!, 'ArrowLeft');
    expect(selected(el)).toEqual(['Dinner']);
    expect(document.activeElement).toBe(tabs(el)[2]);
    expect(visiblePanels(el)).toHaveLength(1);
    expect(visiblePanels(el)[0]!.textContent).toContain('Stew');
    expect(tabs(el).map((t) => t.tabIndex)).toEqual([-1, -1, 0]);
  });

  it('activate the focused tab with Enter or Space', () => {
    const el = render();
    act(() => tabs(el)[2]!.focus());
    expect(selected(el)).toEqual(['Breakfast']);
    press(tabs(el)[2]!, 'Enter');
    expect(selected(el)).toEqual(['Dinner']);
    expect(visiblePanels(el)[0]!.textContent).toContain('Stew');
    press(tabs(el)[1]!, ' ');
    expect(selected(el)).toEqual(['Lunch']);
    expect(visiblePanels(el)[0]!.textContent).toContain('Soup');
  });

  it('ignore other keys', () => {
    const el = render();
    press(tabs(el)[0]!, 'ArrowDown');
    press(tabs(el)[0]!, 'a');
    expect(selected(el)).toEqual(['Breakfast']);
  });

  it('leave the server HTML alone when the data has no usable tab', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = render({ tabs: [{ items: [] }] });
    expect(el.querySelector('h3')?.textContent).toBe('Breakfast');
    expect(tabs(el)).toHaveLength(0);
    expect(warn).toHaveBeenCalledOnce();
  });
});

describe('menu tabs data', () => {
  it('keeps well-formed tabs and skips malformed dishes', () => {
    expect(
      parseMenuTabs({ tabs: [{ title: 'A', items: [{ name: 'x', price: 3 }, { price: '1' }, null] }, 'junk'] }),
    ).toEqual({ tabs: [{ title: 'A', items: [{ name: 'x', description: '', price: '3' }] }] });
  });

  it('refuses anything without tabs', () => {
    for (const bad of [null, 1, 'x', [], {}, { tabs: {} }, { tabs: [] }, { tabs: [{ title: '', items: [] }] }]) {
      expect(parseMenuTabs(bad)).toBeNull();
    }
  });
});
