import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageContext } from '../../generated/types';
import { clearCookies } from '../telemetry/test-support';
import { CONSENT_EVENT, FORCE_EVENT, FORCED_CLASS, UNFORCE_EVENT, UPDATE_EVENT, startConsent } from './index';
import { closeTopTarget } from '../../members/close-targets';
import { reset } from './banner-controller';
import { BANNER_VERSION_COOKIE, CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS, readConsent } from './state';

const context = (cookieSettings: Record<string, unknown>) =>
  ({ websiteSettings: { cookieSettings } }) as unknown as PageContext;
const enabled = { isCookieBannerEnabled: true, cookieBannerAcceptType: 'OPT_IN_AND_OUT', cookieBannerCtaVariant: 'BUTTON' };
const banner = () => document.querySelector<HTMLElement>('.cookie-banner');
const buttons = () => [...document.querySelectorAll<HTMLButtonElement>('.cookie-banner button')];
/** Lets the banner chunk's dynamic import settle. */
const settle = async () => {
  await vi.dynamicImportSettled();
  await vi.advanceTimersByTimeAsync(0);
};

let listeners: Array<[string, EventListener]> = [];
beforeEach(() => {
  reset();
  vi.useFakeTimers();
  document.body.innerHTML = '<main id="main" tabindex="-1"></main>';
  document.body.className = '';
  const add = window.addEventListener.bind(window);
  vi.spyOn(window, 'addEventListener').mockImplementation((type: string, fn: EventListenerOrEventListenerObject) => {
    listeners.push([type, fn as EventListener]);
    add(type, fn);
  });
});
afterEach(() => {
  listeners.forEach(([type, fn]) => window.removeEventListener(type, fn));
  listeners = [];
  clearCookies();
  vi.useRealTimers();
});

describe('the cookie banner', () => {
  it('shows when enabled and unanswered, with Accept and Decline alike', async () => {
    startConsent(window, context(enabled), () => {});
    await settle();
    expect(banner()?.getAttribute('aria-label')).toBe('Cookie consent');
    expect(buttons().map((b) => b.textContent)).toEqual(['Decline', 'Accept']);
    expect(new Set(buttons().map((b) => b.className.replace(/--(accept|decline)/, ''))).size).toBe(1);
  });

  it('does not show when disabled or already answered', async () => {
    startConsent(window, context({ ...enabled, isCookieBannerEnabled: false }), () => {});
    document.cookie = `${CONSENT_COOKIE}=false; path=/`;
    startConsent(window, context(enabled), () => {});
    await settle();
    expect(banner()).toBeNull();
  });

  it('Accept stores true for 30 days on path / and removes the banner', async () => {
    const set = vi.spyOn(document, 'cookie', 'set');
    const answers: boolean[] = [];
    const events: unknown[] = [];
    window.addEventListener(CONSENT_EVENT, (e) => events.push((e as CustomEvent).detail));
    startConsent(window, context(enabled), (a) => answers.push(a));
    await settle();
    buttons()[1]!.focus();
    buttons()[1]!.click();
    expect(readConsent(document)).toBe(true);
    expect(set.mock.calls.map(([v]) => v)).toContain(`${CONSENT_COOKIE}=true; path=/; max-age=${CONSENT_MAX_AGE_SECONDS}; SameSite=Lax`);
    expect(CONSENT_MAX_AGE_SECONDS).toBe(2_592_000);
    expect(answers).toEqual([true]);
    expect(events).toEqual([{ allowed: true }]);
    expect(banner()).toBeNull();
    expect(document.activeElement?.id).toBe('main');
  });

  it('Decline stores false', async () => {
    startConsent(window, context(enabled), () => {});
    await settle();
    buttons()[0]!.click();
    expect(readConsent(document)).toBe(false);
    expect(banner()).toBeNull();
  });

  it('offers Accept only, as a labelled icon, for OPT_IN with the ICON variant', async () => {
    startConsent(window, context({ isCookieBannerEnabled: true }), () => {});
    await settle();
    expect(buttons()).toHaveLength(1);
    expect(buttons()[0]!.getAttribute('aria-label')).toBe('Accept');
  });

  it('asks again after a change of banner version', async () => {
    document.cookie = `${CONSENT_COOKIE}=true; path=/`;
    document.cookie = `${BANNER_VERSION_COOKIE}=1; path=/`;
    startConsent(window, context(enabled), () => {});
    await settle();
    expect(banner()).not.toBeNull();
    expect(document.cookie).not.toContain(CONSENT_COOKIE);
  });

  it('is forced, updated and unforced by window events', async () => {
    document.cookie = `${CONSENT_COOKIE}=true; path=/`;
    startConsent(window, context(enabled), () => {});
    await settle();
    expect(banner()).toBeNull();

    window.dispatchEvent(new CustomEvent(FORCE_EVENT, { detail: { ...enabled, cookieBannerText: 'Forced' } }));
    await settle();
    expect(document.body.classList.contains(FORCED_CLASS)).toBe(true);
    expect(banner()?.textContent).toContain('Forced');
    expect(document.activeElement).toBe(buttons()[0]);

    window.dispatchEvent(new CustomEvent(UPDATE_EVENT, { detail: { ...enabled, cookieBannerVariant: 'POPUP', cookieBannerText: 'Again' } }));
    await settle();
    expect(document.querySelectorAll('.cookie-banner')).toHaveLength(1);
    expect(banner()?.className).toContain('cookie-banner--popup');
    expect(banner()?.className).toContain('cookie-banner--bottom-left');

    window.dispatchEvent(new CustomEvent(UNFORCE_EVENT, { detail: enabled }));
    await settle();
    expect(document.body.classList.contains(FORCED_CLASS)).toBe(false);
    expect(banner()).toBeNull();
  });

  it('is closed by the escape key without an answer, ending the forced state, and shows on the next page', async () => {
    window.dispatchEvent(new CustomEvent(FORCE_EVENT, { detail: enabled }));
    startConsent(window, context(enabled), () => {});
    await settle();
    window.dispatchEvent(new CustomEvent(FORCE_EVENT, { detail: enabled }));
    await settle();
    expect(banner()).not.toBeNull();
    expect(closeTopTarget()).toBe(true);
    expect(banner()).toBeNull();
    expect(document.body.classList.contains(FORCED_CLASS)).toBe(false);
    expect(readConsent(document)).toBeUndefined();
    expect(closeTopTarget()).toBe(false);

    reset();
    startConsent(window, context(enabled), () => {});
    await settle();
    buttons()[1]!.click();
    expect(closeTopTarget()).toBe(false);
  });
});
