// The Google Maps script (001 §7, §4 "Map script load"): loaded once with the site's key plus
// its optional language and region; pending until the script's callback fires; failing
// when no callback arrives within 30 s. The failure leaves the block's fallback.
import { SCRIPT_TIMEOUT_MS } from './options';

/** The error when the callback does not arrive in time. */
export const SCRIPT_TIMEOUT_MESSAGE = 'Google Maps did not load: no callback within 30 s.';
/** The error when the script itself fails to load. */
export const SCRIPT_ERROR_MESSAGE = 'Google Maps did not load: the script failed.';
/** The global callback the script calls. */
export const CALLBACK = '__verandaGoogleMapsReady';

const loads = new WeakMap<Window, Promise<unknown>>();

/** The script's address for `key`, `language` and `region`. */
export function scriptUrl(key: string, language: string | null, region: string | null): string {
  const url = new URL('https://maps.googleapis.com/maps/api/js');
  url.searchParams.set('key', key);
  url.searchParams.set('callback', CALLBACK);
  url.searchParams.set('loading', 'async');
  if (language) url.searchParams.set('language', language);
  if (region) url.searchParams.set('region', region);
  return url.toString();
}

/**
 * Loads the script once per window; resolves with `google.maps` when its callback fires,
 * rejects after `timeoutMs` without it, or when the script fails.
 */
export function loadGoogleMaps(
  win: Window,
  key: string,
  language: string | null,
  region: string | null,
  timeoutMs = SCRIPT_TIMEOUT_MS,
): Promise<unknown> {
  const known = loads.get(win);
  if (known) return known;
  const loading = new Promise<unknown>((resolve, reject) => {
    const w = win as unknown as Record<string, unknown>;
    const timer = win.setTimeout(() => {
      delete w[CALLBACK];
      reject(new Error(SCRIPT_TIMEOUT_MESSAGE));
    }, timeoutMs);
    w[CALLBACK] = () => {
      win.clearTimeout(timer);
      delete w[CALLBACK];
      resolve((w.google as { maps?: unknown } | undefined)?.maps);
    };
    const script = win.document.createElement('script');
    script.src = scriptUrl(key, language, region);
    script.async = true;
    script.addEventListener('error', () => {
      win.clearTimeout(timer);
      delete w[CALLBACK];
      reject(new Error(SCRIPT_ERROR_MESSAGE));
    });
    win.document.head.append(script);
  });
  loads.set(win, loading);
  // A failed load may be tried again by the next map.
  loading.catch(() => loads.delete(win));
  return loading;
}
