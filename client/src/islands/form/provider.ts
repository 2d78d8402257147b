// Which captcha a form shows (spec 000 §7, 001 §7): the site's `[captcha]` settings reach the
// page in the page context (`websiteSettings.captchaSettings`: provider and site key) with
// the address the provider's script loads from (`websiteSettings.captchaScriptUrl`, the
// server's `[forms] recaptcha_script_url`). ALTCHA is solved in the page; reCAPTCHA loads the
// provider's script with the site key. A reCAPTCHA site without a site key cannot show one.
import type { PageContext } from '../../generated/types';
import { isRecord } from '../../data/is-record';

/** Google's reCAPTCHA script, when the page names none. */
export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';

/** The captcha a form shows. */
export type CaptchaProvider =
  | { kind: 'altcha' }
  | { kind: 'recaptcha'; siteKey: string; scriptUrl: string }
  /** reCAPTCHA without a site key: nothing can be shown. */
  | { kind: 'unset' };

/** An `http(s)` address, else Google's script. */
function scriptUrlOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return RECAPTCHA_SCRIPT_URL;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : RECAPTCHA_SCRIPT_URL;
  } catch {
    return RECAPTCHA_SCRIPT_URL;
  }
}

/** The captcha of the page whose context is `context` (ALTCHA without one). */
export function captchaProviderOf(context: PageContext | null): CaptchaProvider {
  const settings: unknown = context?.websiteSettings;
  if (!isRecord(settings)) return { kind: 'altcha' };
  const captcha = isRecord(settings.captchaSettings) ? settings.captchaSettings : {};
  if (captcha.provider !== 'recaptcha') return { kind: 'altcha' };
  const siteKey = typeof captcha.siteKey === 'string' ? captcha.siteKey.trim() : '';
  if (siteKey === '') return { kind: 'unset' };
  return { kind: 'recaptcha', siteKey, scriptUrl: scriptUrlOf(settings.captchaScriptUrl) };
}
