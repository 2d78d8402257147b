import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageContext, PopupOverlaySettings } from '../../generated/types';
import { STORAGE_KEY, dueByRecord, hiddenByRule, overlayToShow, readRecord, saveRecord } from './rules';

const DAY = 86_400_000;
const settings = (over: Partial<PopupOverlaySettings> = {}): PopupOverlaySettings => ({
  style: 'lightbox',
  enableMobile: true,
  version: 1,
  showUntilSignup: false,
  displayFrequency: 14,
  title: 'Porch letters',
  body: 'News',
  delaySeconds: 0,
  ...over,
});
const place = { pageType: 2, search: '', mobile: false };

beforeEach(() => localStorage.clear());

describe('popup overlay hide rules', () => {
  it('hide it on the splash page, lock screen, mobile when disabled, style none and in screenshot mode', () => {
    expect(hiddenByRule(settings(), place)).toBe(false);
    expect(hiddenByRule(settings(), { ...place, pageType: 3 })).toBe(true);
    expect(hiddenByRule(settings(), { ...place, pageType: 103 })).toBe(true);
    expect(hiddenByRule(settings({ enableMobile: false }), { ...place, mobile: true })).toBe(true);
    expect(hiddenByRule(settings({ enableMobile: false }), place)).toBe(false);
    expect(hiddenByRule(settings({ style: 'None' }), place)).toBe(true);
    expect(hiddenByRule(settings(), { ...place, search: '?sqsscreenshot=true' })).toBe(true);
    expect(hiddenByRule(settings(), { ...place, search: '?sqsscreenshot=false' })).toBe(false);
  });
});

describe('popup overlay frequency', () => {
  const now = 1_700_000_000_000;
  const closed = (daysAgo: number, over = {}) => ({ 'date-closed': now - daysAgo * DAY, version: 1, submitted: false, ...over });

  it('shows with no record, then again only after displayFrequency days', () => {
    expect(dueByRecord(settings(), null, now)).toBe(true);
    expect(dueByRecord(settings(), closed(13.9), now)).toBe(false);
    expect(dueByRecord(settings(), closed(14), now)).toBe(true);
    expect(dueByRecord(settings({ displayFrequency: 0 }), closed(0), now)).toBe(true);
  });

  it('never shows again after closing with -1', () => {
    expect(dueByRecord(settings({ displayFrequency: -1 }), closed(10_000), now)).toBe(false);
  });

  it('keeps showing until sign-up with showUntilSignup, and never after a sign-up', () => {
    expect(dueByRecord(settings({ showUntilSignup: true }), closed(0), now)).toBe(true);
    expect(dueByRecord(settings({ showUntilSignup: true }), closed(0, { submitted: true }), now)).toBe(false);
    expect(dueByRecord(settings(), { 'date-closed': null, version: 1, submitted: true }, now)).toBe(false);
  });

  it('shows again for a new settings version', () => {
    expect(dueByRecord(settings({ version: 2, displayFrequency: -1 }), closed(0, { submitted: true }), now)).toBe(true);
  });
});

describe('the saved record', () => {
  it('is kept under one local-storage key and starts afresh for a new version', () => {
    saveRecord(localStorage, 1, { 'date-closed': 5 });
    saveRecord(localStorage, 1, { submitted: true });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!)).toEqual({ 'date-closed': 5, version: 1, submitted: true });
    saveRecord(localStorage, 2, { 'date-closed': 9 });
    expect(readRecord(localStorage)).toEqual({ 'date-closed': 9, version: 2, submitted: false });
  });

  it('reads a malformed record as none', () => {
    localStorage.setItem(STORAGE_KEY, '{"version":"x"}');
    expect(readRecord(localStorage)).toBeNull();
    localStorage.setItem(STORAGE_KEY, 'not json');
    expect(readRecord(localStorage)).toBeNull();
  });

  it('decides for a page from its context, location, width and storage', () => {
    const context = { pageType: 2, websiteSettings: { popupOverlaySettings: settings() } } as unknown as PageContext;
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    expect(overlayToShow(window, context, Date.now())).not.toBeNull();
    saveRecord(localStorage, 1, { 'date-closed': Date.now() });
    expect(overlayToShow(window, context, Date.now())).toBeNull();
    expect(overlayToShow(window, null, Date.now())).toBeNull();
  });
});
