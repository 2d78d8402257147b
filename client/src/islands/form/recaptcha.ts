// The reCAPTCHA script (spec 001 §7, "a captcha script loads from a third-party provider with
// the site's configured captcha site key"): loaded once per window and address in explicit
// mode, pending until the script calls its onload callback, failing when it errs or has not
// called back within [`SCRIPT_TIMEOUT_MS`]. A failed load may be tried again.

/** The global the script calls once `grecaptcha` is ready. */
export const ONLOAD_CALLBACK = '__verandaRecaptchaReady';
/** How long the script may take to call back. */
export const SCRIPT_TIMEOUT_MS = 30_000;
/** The error when the script fails or does not call back in time. */
export const SCRIPT_FAILED = 'The reCAPTCHA script did not load.';

/** What the page asks of the provider's widget. */
export interface RecaptchaParams {
  sitekey: string;
  callback: (token: string) => void;
  'expired-callback': () => void;
  'error-callback': () => void;
}

/** The part of the provider's `grecaptcha` the form uses. */
export interface Grecaptcha {
  render(container: HTMLElement, params: RecaptchaParams): number;
  reset(widgetId?: number): void;
}

/** Loads by window and script address. */
const loads = new WeakMap<Window, Map<string, Promise<Grecaptcha>>>();

/** The script's address: `base` with explicit rendering and the onload callback. */
export function recaptchaScriptUrl(base: string): string {
  const url = new URL(base);
  url.searchParams.set('render', 'explicit');
  url.searchParams.set('onload', ONLOAD_CALLBACK);
  return url.toString();
}

function grecaptchaOf(win: Window): Grecaptcha | null {
  const g = (win as unknown as { grecaptcha?: Partial<Grecaptcha> }).grecaptcha;
  return g && typeof g.render === 'function' && typeof g.reset === 'function' ? (g as Grecaptcha) : null;
}

/** Loads the script from `base` once per window; resolves with `grecaptcha`. */
export function loadRecaptcha(win: Window, base: string, timeoutMs = SCRIPT_TIMEOUT_MS): Promise<Grecaptcha> {
  const mine = loads.get(win) ?? new Map<string, Promise<Grecaptcha>>();
  loads.set(win, mine);
  const known = mine.get(base);
  if (known) return known;
  const loading = new Promise<Grecaptcha>((resolve, reject) => {
    const w = win as unknown as Record<string, unknown>;
    const script = win.document.createElement('script');
    const fail = () => {
      win.clearTimeout(timer);
      delete w[ONLOAD_CALLBACK];
      script.remove();
      reject(new Error(SCRIPT_FAILED));
    };
    const timer = win.setTimeout(fail, timeoutMs);
    w[ONLOAD_CALLBACK] = () => {
      win.clearTimeout(timer);
      delete w[ONLOAD_CALLBACK];
      const g = grecaptchaOf(win);
      if (g) resolve(g);
      else reject(new Error(SCRIPT_FAILED));
    };
    script.src = recaptchaScriptUrl(base);
    script.async = true;
    script.defer = true;
    script.addEventListener('error', fail);
    win.document.head.append(script);
  });
  mine.set(base, loading);
  loading.catch(() => {
    if (mine.get(base) === loading) mine.delete(base);
  });
  return loading;
}
