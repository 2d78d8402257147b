import { afterEach, describe, expect, it } from 'vitest';

import { focusTrap, focusablesIn } from './focus-trap';

function page(): { dialog: HTMLElement; outside: HTMLButtonElement; buttons: HTMLButtonElement[] } {
  document.body.innerHTML = `<button id="outside">Outside</button>
    <div role="dialog"><button id="a">A</button><button id="hidden" hidden>H</button><a href="#b" id="b">B</a><button id="c" class="last">C</button></div>`;
  return {
    dialog: document.querySelector('[role="dialog"]')!,
    outside: document.querySelector('#outside')!,
    buttons: [...document.querySelectorAll<HTMLButtonElement>('#a, #b, #c')],
  };
}

function tab(handler: (e: KeyboardEvent) => void, shiftKey = false): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'Tab', shiftKey, cancelable: true });
  handler(event);
  return event;
}

describe('the focus trap', () => {
  afterEach(() => document.body.replaceChildren());

  it('requires exactly one of container or predicate (001 §5)', () => {
    const { dialog } = page();
    expect(() => focusTrap(document, {})).toThrow(TypeError);
    expect(() => focusTrap(document, { container: dialog, predicate: () => true })).toThrow(
      'The focus trap requires exactly one of container or predicate.',
    );
    expect(() => focusTrap(document, { container: dialog })).not.toThrow();
    expect(() => focusTrap(document, { predicate: () => true })).not.toThrow();
  });

  it('takes Tab from the last control to the first and Shift+Tab back, skipping hidden ones', () => {
    const { dialog, buttons } = page();
    expect(focusablesIn(dialog).map((el) => el.id)).toEqual(['a', 'b', 'c']);
    const trap = focusTrap(document, { container: dialog });
    buttons[2]!.focus();
    expect(tab(trap).defaultPrevented).toBe(true);
    expect(document.activeElement?.id).toBe('a');
    expect(tab(trap, true).defaultPrevented).toBe(true);
    expect(document.activeElement?.id).toBe('c');
    buttons[1]!.focus();
    expect(tab(trap).defaultPrevented, 'inside, Tab moves as usual').toBe(false);
  });

  it('brings focus from outside back in, for a container or a predicate', () => {
    const { outside } = page();
    const byClass = focusTrap(document, { predicate: (el) => el.closest('[role="dialog"]') !== null });
    outside.focus();
    tab(byClass);
    expect(document.activeElement?.id).toBe('a');
    outside.focus();
    tab(byClass, true);
    expect(document.activeElement?.id).toBe('c');
  });
});
