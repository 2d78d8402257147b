import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContributorRole } from '../generated/types';
import { NOREDIRECT_KEY, configLocation, ownerRedirectTarget, redirectOwner } from './owner-redirect';
import { context } from './test-support';

/** A window at `url`; `framed` puts it inside another window. */
function fakeWindow(url: string, framed = false): Window {
  const parsed = new URL(url);
  const win: Record<string, unknown> = {
    location: { pathname: parsed.pathname, search: parsed.search, hostname: parsed.hostname, assign: vi.fn() },
    sessionStorage: window.sessionStorage,
  };
  win.self = win;
  win.top = framed ? {} : win;
  return win as unknown as Window;
}

const editor = context({ signedIn: true, roles: [ContributorRole.Editor] });

describe('the owner redirect', () => {
  beforeEach(() => window.sessionStorage.clear());

  it('sends an editor on the top window to configuration with the encoded path', () => {
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/blog?tag=x'), editor)).toBe(
      '/config/?frameUrl=%2Fblog%3Ftag%3Dx',
    );
    expect(configLocation('/', '')).toBe('/config/?frameUrl=%2F');
  });

  it('never redirects a viewer, even one with other roles', () => {
    const viewer = context({ signedIn: true, roles: [ContributorRole.Admin, ContributorRole.Viewer] });
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/'), viewer)).toBeNull();
  });

  it('never redirects a page that is not the top window', () => {
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/', true), editor)).toBeNull();
  });

  it('skips on localhost, developer mode, cloneable sites, visitors and members', () => {
    expect(ownerRedirectTarget(fakeWindow('http://localhost:8080/'), editor)).toBeNull();
    const dev = context({ signedIn: true, roles: [ContributorRole.Admin], developerMode: true });
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/'), dev)).toBeNull();
    const clone = context({ signedIn: true, roles: [ContributorRole.Admin], cloneable: true });
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/'), clone)).toBeNull();
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/'), context({}))).toBeNull();
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/'), context({ signedIn: true }))).toBeNull();
  });

  it('remembers noredirect for the session', () => {
    expect(ownerRedirectTarget(fakeWindow('https://cafe.example/?noredirect'), editor)).toBeNull();
    expect(JSON.parse(window.sessionStorage.getItem(NOREDIRECT_KEY)!)).toEqual({ value: true });
    const later = fakeWindow('https://cafe.example/about');
    expect(redirectOwner(later, editor)).toBe(false);
    expect(later.location.assign).not.toHaveBeenCalled();
    window.sessionStorage.clear();
    expect(redirectOwner(later, editor)).toBe(true);
    expect(later.location.assign).toHaveBeenCalledWith('/config/?frameUrl=%2Fabout');
  });
});
