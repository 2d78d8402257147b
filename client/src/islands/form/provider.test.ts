import { describe, expect, it } from 'vitest';
import type { PageContext } from '../../generated/types';
import { captchaProviderOf } from './provider';

/** A page context holding only the captcha settings the island reads. */
function context(captchaSettings: unknown, captchaScriptUrl?: unknown): PageContext {
  return { websiteSettings: { captchaSettings, captchaScriptUrl } } as unknown as PageContext;
}

describe("the form's captcha provider", () => {
  it('be ALTCHA by default, without a context or captcha settings', () => {
    expect(captchaProviderOf(null)).toEqual({ kind: 'altcha' });
    expect(captchaProviderOf({} as PageContext)).toEqual({ kind: 'altcha' });
    expect(captchaProviderOf(context(undefined))).toEqual({ kind: 'altcha' });
    expect(captchaProviderOf(context({ provider: 'altcha', siteKey: 'k' }))).toEqual({ kind: 'altcha' });
  });

  it('be reCAPTCHA with the site key and the script the page names', () => {
    expect(captchaProviderOf(context({ provider: 'recaptcha', siteKey: ' 6Lc-key ' }, 'http://127.0.0.1:9/api.js'))).toEqual({
      kind: 'recaptcha',
      siteKey: '6Lc-key',
      scriptUrl: 'http://127.0.0.1:9/api.js',
    });
  });

  it("load Google's script when the page names none or no http(s) address", () => {
    for (const url of [undefined, '', 'javascript:alert(1)', 'not a url', 7]) {
      expect(captchaProviderOf(context({ provider: 'recaptcha', siteKey: 'k' }, url))).toEqual({
        kind: 'recaptcha',
        siteKey: 'k',
        scriptUrl: 'https://www.google.com/recaptcha/api.js',
      });
    }
  });

  it('be unset for reCAPTCHA without a site key', () => {
    expect(captchaProviderOf(context({ provider: 'recaptcha' }))).toEqual({ kind: 'unset' });
    expect(captchaProviderOf(context({ provider: 'recaptcha', siteKey: '  ' }))).toEqual({ kind: 'unset' });
  });
});
