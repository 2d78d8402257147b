import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageContext, PopupOverlaySettings } from '../../generated/types';
import { closeTopTarget } from '../../members/close-targets';
import { FORM_SUCCESS_EVENT, openOverlay } from './overlay';
import { readRecord } from './rules';
import { startPopupOverlay } from './start';

const settings: PopupOverlaySettings = {
  style: 'lightbox',
  enableMobile: true,
  version: 3,
  showUntilSignup: false,
  displayFrequency: 7,
  title: 'Porch letters',
  body: 'One short note a month.',
  delaySeconds: 20,
  formId: 'newsletter',
};

beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  localStorage.clear();
  document.body.innerHTML = '<button id="before">before</button>';
  // jsdom has no modal dialogs: showModal and close behave as the browser's do for this test.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});
afterEach(() => vi.useRealTimers());

describe('the popup overlay', () => {
  it('opens as a labelled modal dialog and saves the close date, returning focus', () => {
    const before = document.getElementById('before')!;
    before.focus();
    const dialog = openOverlay(window, settings);
    expect(dialog.hasAttribute('open')).toBe(true);
    expect(document.getElementById(dialog.getAttribute('aria-labelledby')!)?.textContent).toBe('Porch letters');
    dialog.querySelector('button')!.click();
    expect(document.querySelector('dialog')).toBeNull();
    expect(readRecord(localStorage)).toEqual({ 'date-closed': 1_700_000_000_000, version: 3, submitted: false });
    expect(document.activeElement).toBe(before);
  });

  it('is closed by the escape key before anything else, and only once', async () => {
    const dialog = openOverlay(window, settings);
    await vi.dynamicImportSettled();
    expect(closeTopTarget()).toBe(true);
    expect(dialog.isConnected).toBe(false);
    expect(readRecord(localStorage)?.['date-closed']).toBe(1_700_000_000_000);
    expect(closeTopTarget()).toBe(false);
    openOverlay(window, settings).querySelector('button')!.click();
    await vi.dynamicImportSettled();
    expect(closeTopTarget()).toBe(false);
  });

  it('records a sign-up through its form', () => {
    openOverlay(window, settings);
    window.dispatchEvent(new CustomEvent(FORM_SUCCESS_EVENT, { detail: { formId: 'other' } }));
    expect(readRecord(localStorage)).toBeNull();
    window.dispatchEvent(new CustomEvent(FORM_SUCCESS_EVENT, { detail: { formId: 'newsletter' } }));
    expect(readRecord(localStorage)?.submitted).toBe(true);
  });

  it('is imported by the loader only after the configured delay', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    const context = { pageType: 2, websiteSettings: { popupOverlaySettings: settings } } as unknown as PageContext;
    startPopupOverlay(window, context);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(document.querySelector('dialog')).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await vi.dynamicImportSettled();
    expect(document.querySelector('dialog.popup-overlay')).not.toBeNull();
  });

  it('is not opened when the rules hide it, even after the delay', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    const context = { pageType: 103, websiteSettings: { popupOverlaySettings: settings } } as unknown as PageContext;
    startPopupOverlay(window, context);
    await vi.advanceTimersByTimeAsync(20_000);
    await vi.dynamicImportSettled();
    expect(document.querySelector('dialog')).toBeNull();
    startPopupOverlay(window, { ...context, pageType: 2, websiteSettings: { popupOverlaySettings: { ...settings, style: 'none' } } } as PageContext);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
