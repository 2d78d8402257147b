// When the popup overlay shows (spec 000 §4, 001 §9), as plain functions the loader runs
// before it imports the overlay. Hidden on the splash page and the lock screen, when the
// overlay is off for mobile on a mobile-width screen, when its style is `none`, and in
// screenshot mode (`?sqsscreenshot=true`). Otherwise the saved record decides: a record of
// another settings version shows it again; after a sign-up it stays away, unless nothing
// was ever submitted and `showUntilSignup` keeps it coming; after closing it comes back
// once `displayFrequency` days have passed (-1: never again, 0: on the next page).
//
// The record lives in local storage under one key as JSON with the fields `date-closed`
// (ms since the epoch, or null), `version` and `submitted`.
import type { PageContext, PopupOverlaySettings } from '../../generated/types';

/** The local-storage key of the saved record. */
export const STORAGE_KEY = 'veranda-popup-overlay';
/** Widths up to this are mobile (spec 000 §9). */
export const MOBILE_MAX_WIDTH = 432;
/** Page types on which the overlay never shows: splash page and lock screen. */
export const HIDDEN_PAGE_TYPES: readonly number[] = [3, 103];
const DAY_MS = 24 * 60 * 60 * 1000;

/** The saved record. */
export interface OverlayRecord {
  /** When the visitor closed it, or null. */
  'date-closed': number | null;
  /** The settings version the record belongs to. */
  version: number;
  /** Whether the visitor signed up through it. */
  submitted: boolean;
}

/** Reads the record; a missing, unreadable or malformed one is `null`. */
export function readRecord(storage: Storage | null): OverlayRecord | null {
  try {
    const value: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const r = value as Record<string, unknown>;
    const closed = r['date-closed'];
    if (typeof r.version !== 'number' || typeof r.submitted !== 'boolean') return null;
    return { 'date-closed': typeof closed === 'number' ? closed : null, version: r.version, submitted: r.submitted };
  } catch {
    return null;
  }
}

/** Writes `change` into the record for `version` (a record of another version starts afresh). */
export function saveRecord(storage: Storage | null, version: number, change: Partial<OverlayRecord>): void {
  const old = readRecord(storage);
  const base: OverlayRecord = old?.version === version ? old : { 'date-closed': null, version, submitted: false };
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify({ ...base, ...change, version }));
  } catch {
    // Storage full or blocked: the overlay simply shows again next time.
  }
}

/** What the hide rules look at besides the settings. */
export interface OverlayPlace {
  /** The page type id. */
  pageType: number;
  /** The page's query string. */
  search: string;
  /** Whether the screen is mobile width. */
  mobile: boolean;
}

/** Whether a hide rule applies. */
export function hiddenByRule(settings: PopupOverlaySettings, place: OverlayPlace): boolean {
  return (
    HIDDEN_PAGE_TYPES.includes(place.pageType) ||
    (place.mobile && !settings.enableMobile) ||
    settings.style.trim().toLowerCase() === 'none' ||
    new URLSearchParams(place.search).get('sqsscreenshot') === 'true'
  );
}

/** Whether the saved record lets the overlay show at `now`. */
export function dueByRecord(settings: PopupOverlaySettings, record: OverlayRecord | null, now: number): boolean {
  if (!record || record.version !== settings.version) return true;
  if (record.submitted) return false;
  if (settings.showUntilSignup) return true;
  const closed = record['date-closed'];
  if (closed === null) return true;
  if (settings.displayFrequency < 0) return false;
  return now - closed >= settings.displayFrequency * DAY_MS;
}

/** The overlay settings of a page, when it should show there at `now`. */
export function overlayToShow(win: Window, context: PageContext | null, now: number): PopupOverlaySettings | null {
  const settings = context?.websiteSettings?.popupOverlaySettings;
  if (!settings || typeof settings.style !== 'string') return null;
  const mobile = win.matchMedia?.(`(max-width: ${MOBILE_MAX_WIDTH}px)`).matches ?? false;
  if (hiddenByRule(settings, { pageType: context.pageType, search: win.location.search, mobile })) return null;
  let storage: Storage | null = null;
  try {
    storage = win.localStorage;
  } catch {
    // Blocked storage: no record.
  }
  return dueByRecord(settings, readRecord(storage), now) ? settings : null;
}
