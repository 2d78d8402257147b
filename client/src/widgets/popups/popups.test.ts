import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onEscape } from '../../members/escape';
import { context } from '../../members/test-support';
import { HIDE_TRANSITION_MS, INFORMATION_HIDE_AFTER_MS, alertPopup, confirmPopup, informationPopup, type PopupResult } from './popups';

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML = '<button id="origin">origin</button>';
  // jsdom lacks modal dialogs: open/close as the browser does for these tests.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
    this.dataset.modal = 'true';
  };
  HTMLDialogElement.prototype.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});
afterEach(() => vi.useRealTimers());

const labels = (d: HTMLElement) => [...d.querySelectorAll('button')].map((b) => b.textContent);

describe('popups', () => {
  it('a confirmation has title, message and up to three buttons, and hides in 600 ms', async () => {
    document.getElementById('origin')!.focus();
    const p = confirmPopup(document, { title: 'Remove?', message: 'This removes the item.', rejectText: 'Keep' });
    expect(p.element.dataset.modal).toBe('true');
    expect(labels(p.element)).toEqual(['Cancel', 'Keep', 'Confirm']);
    expect(document.getElementById(p.element.getAttribute('aria-labelledby')!)?.textContent).toBe('Remove?');
    let result: PopupResult | undefined;
    void p.result.then((r) => (result = r));
    p.element.querySelector<HTMLButtonElement>('.popup__button--reject')!.click();
    expect(p.element.classList.contains('popup--hiding')).toBe(true);
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS - 1);
    expect(result).toBeUndefined();
    expect(document.body.contains(p.element)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBe('reject');
    expect(document.body.contains(p.element)).toBe(false);
    expect(document.activeElement?.id).toBe('origin');
  });

  it('Escape cancels, unless escToCancel is off', async () => {
    const p = confirmPopup(document, { title: 't', message: 'm' });
    p.element.dispatchEvent(new Event('cancel', { cancelable: true }));
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS);
    await expect(p.result).resolves.toBe('cancel');
    const q = confirmPopup(document, { title: 't', message: 'm', escToCancel: false });
    q.element.dispatchEvent(new Event('cancel', { cancelable: true }));
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS);
    expect(document.body.contains(q.element)).toBe(true);
  });

  it('a click on the overlay cancels', async () => {
    const p = confirmPopup(document, { title: 't', message: 'm' });
    p.element.dispatchEvent(new MouseEvent('click', { clientX: 500, clientY: 500 }));
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS);
    await expect(p.result).resolves.toBe('cancel');
  });

  it('an alert has only Okay', () => {
    expect(labels(alertPopup(document, 'Preview Only', 'Please log out.').element)).toEqual(['Okay']);
  });

  it('an information popup has no buttons, sits top-right and is gone after 2000 ms', async () => {
    const p = informationPopup(document, 'Logout Successful', 'You have been successfully logged out.');
    expect(labels(p.element)).toEqual([]);
    expect(p.element.className).toContain('popup--top-right');
    expect(p.element.dataset.modal).toBeUndefined();
    await vi.advanceTimersByTimeAsync(INFORMATION_HIDE_AFTER_MS - 1);
    expect(p.element.classList.contains('popup--hiding')).toBe(false);
    await vi.advanceTimersByTimeAsync(1 + HIDE_TRANSITION_MS);
    await expect(p.result).resolves.toBe('timeout');
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('the escape key cancels the newest open popup first, modal or not, before going to configuration', async () => {
    const win = { location: { pathname: '/', search: '', assign: vi.fn() } } as unknown as Window;
    const handlers = { logout: vi.fn(), login: vi.fn() };
    const kept = confirmPopup(document, { title: 'kept', message: 'm', escToCancel: false });
    const modal = confirmPopup(document, { title: 'modal', message: 'm' });
    const plain = informationPopup(document, 'plain', 'm');
    expect(await onEscape(win, context({ signedIn: true }), false, handlers)).toBe('close');
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS);
    await expect(plain.result).resolves.toBe('cancel');
    expect(document.body.contains(modal.element)).toBe(true);
    expect(await onEscape(win, context({ signedIn: true }), false, handlers)).toBe('close');
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS);
    await expect(modal.result).resolves.toBe('cancel');
    expect(win.location.assign).not.toHaveBeenCalled();
    kept.hide('confirm');
    await vi.advanceTimersByTimeAsync(HIDE_TRANSITION_MS);
    expect(document.querySelector('dialog')).toBeNull();
  });
});
