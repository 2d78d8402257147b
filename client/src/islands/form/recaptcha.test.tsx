import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_CONTEXT_ID } from '../../loader/context';
import { mount } from './index';
import { CAPTCHA_REQUIRED } from './messages';
import { ONLOAD_CALLBACK, SCRIPT_FAILED, loadRecaptcha, recaptchaScriptUrl, type RecaptchaParams } from './recaptcha';
import { RECAPTCHA_FAILED } from './recaptcha-check';
import { mockServer, settle, submitForm, type } from './test-support';

/** The script's address: each test loads its own (a window loads each address once). */
let SCRIPT = '';
let loaded = 0;

const DATA = {
  formId: 'contact',
  title: 'Send us a message',
  fields: [{ id: 'email', type: 'email', title: 'Email', required: true }],
  submitButtonText: 'Send message',
  successMessage: 'Thank you!',
  postSubmitHtml: '',
  captcha: true,
  disclaimer: '',
};

/** A stand-in `grecaptcha`: remembers what was rendered and counts resets. */
function fakeGrecaptcha() {
  const fake = {
    params: null as RecaptchaParams | null,
    container: null as HTMLElement | null,
    resets: [] as Array<number | undefined>,
    render(container: HTMLElement, params: RecaptchaParams) {
      fake.container = container;
      fake.params = params;
      return 7;
    },
    reset(id?: number) {
      fake.resets.push(id);
    },
  };
  return fake;
}

function pageContext(captchaSettings: unknown) {
  const script = document.createElement('script');
  script.id = PAGE_CONTEXT_ID;
  script.type = 'application/json';
  script.textContent = JSON.stringify({ websiteSettings: { captchaSettings, captchaScriptUrl: SCRIPT } });
  document.head.append(script);
}

function render(): HTMLElement {
  const el = document.createElement('section');
  el.id = 'block-60cf1b6dcc64273709bf1e5b';
  document.body.append(el);
  act(() => mount(el, DATA));
  return el;
}

/** The provider's script the page added, if any. */
const providerScript = () => document.head.querySelector<HTMLScriptElement>(`script[src^="${SCRIPT}"]`);

beforeEach(() => {
  document.cookie = 'crumb=c.1; path=/';
  loaded += 1;
  SCRIPT = `http://127.0.0.1:9/recaptcha/api-${loaded}.js`;
});

afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  delete (window as unknown as Record<string, unknown>).grecaptcha;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the reCAPTCHA script', () => {
  it('load in explicit mode with the onload callback', () => {
    const url = new URL(recaptchaScriptUrl('https://www.google.com/recaptcha/api.js'));
    expect(url.origin + url.pathname).toBe('https://www.google.com/recaptcha/api.js');
    expect(url.searchParams.get('render')).toBe('explicit');
    expect(url.searchParams.get('onload')).toBe(ONLOAD_CALLBACK);
  });

  it('fail when the script never calls back, and may be tried again', async () => {
    vi.useFakeTimers();
    try {
      const loading = loadRecaptcha(window, SCRIPT, 1000);
      vi.advanceTimersByTime(1000);
      await expect(loading).rejects.toThrow(SCRIPT_FAILED);
      expect(providerScript()).toBeNull();
      const again = loadRecaptcha(window, SCRIPT, 1000);
      expect(again).not.toBe(loading);
      expect(providerScript()).not.toBeNull();
      vi.advanceTimersByTime(1000);
      await expect(again).rejects.toThrow(SCRIPT_FAILED);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a form on a reCAPTCHA site', () => {
  it('render the widget with the site key, send its token as captchaKey, and reset it after a failure', async () => {
    pageContext({ provider: 'recaptcha', siteKey: 'site-key' });
    const seen = mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [
        { status: 400, body: { error: 'The CAPTCHA could not be verified. Please complete the CAPTCHA again.' } },
        { status: 200, body: { success: true } },
      ],
    });
    const el = render();
    expect(el.querySelector('.captcha input[type="checkbox"]'), 'no ALTCHA checkbox').toBeNull();
    expect(providerScript()).not.toBeNull();
    const g = fakeGrecaptcha();
    (window as unknown as Record<string, unknown>).grecaptcha = g;
    act(() => (window as unknown as Record<string, () => void>)[ONLOAD_CALLBACK]!());
    await settle();
    expect(g.params?.sitekey).toBe('site-key');
    expect(el.querySelector('.captcha__widget')).toBe(g.container);

    type(el.querySelector<HTMLInputElement>('[name="email"]')!, 'ada@example.com');
    const form = el.querySelector('form')!;
    submitForm(form);
    await settle();
    expect(el.querySelector('.form-errors')!.textContent).toBe(CAPTCHA_REQUIRED);

    act(() => g.params!.callback('token-1'));
    submitForm(form);
    await settle();
    const saves = () => seen.filter((s) => s.path === '/api/form/SaveFormSubmission');
    expect(saves()[0]!.body!.captchaKey).toBe('token-1');
    expect(el.querySelector('.form-errors')!.textContent).toContain('The CAPTCHA could not be verified.');
    expect(g.resets).toEqual([7]);
    const button = el.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    expect(button.disabled).toBe(true);

    act(() => g.params!.callback('token-2'));
    expect(button.disabled).toBe(false);
    submitForm(form);
    await settle();
    expect(saves()[1]!.body!.captchaKey).toBe('token-2');
    expect(el.querySelector('.form-success')).not.toBeNull();
  });

  it('clear the token when the widget expires', async () => {
    pageContext({ provider: 'recaptcha', siteKey: 'site-key' });
    const seen = mockServer({ '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }] });
    const el = render();
    const g = fakeGrecaptcha();
    (window as unknown as Record<string, unknown>).grecaptcha = g;
    act(() => (window as unknown as Record<string, () => void>)[ONLOAD_CALLBACK]!());
    await settle();
    act(() => g.params!.callback('token-1'));
    act(() => g.params!['expired-callback']());
    type(el.querySelector<HTMLInputElement>('[name="email"]')!, 'ada@example.com');
    submitForm(el.querySelector('form')!);
    await settle();
    expect(el.querySelector('.form-errors')!.textContent).toBe(CAPTCHA_REQUIRED);
    expect(seen).toHaveLength(0);
  });

  it('log a script that fails and tell the visitor', async () => {
    pageContext({ provider: 'recaptcha', siteKey: 'site-key' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = render();
    act(() => providerScript()!.dispatchEvent(new Event('error')));
    await settle();
    expect(el.querySelector('.captcha__status')!.textContent).toBe(RECAPTCHA_FAILED);
    expect(logged).toHaveBeenCalled();
  });

  it("say 'ReCaptcha has not been set up!' without a site key", () => {
    pageContext({ provider: 'recaptcha' });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = render();
    expect(el.querySelector('[role="alert"].captcha')!.textContent).toBe('ReCaptcha has not been set up!');
    expect(providerScript()).toBeNull();
    expect(logged).toHaveBeenCalledWith('Veranda: ReCaptcha has not been set up!');
  });
});
