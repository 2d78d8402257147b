import { describe, expect, it, vi } from 'vitest';
import { registerCloseTarget } from './close-targets';
import { escapeAction, onEscape } from './escape';
import { context } from './test-support';

describe('escapeAction', () => {
  it('closes a registered target before anything else', () => {
    expect(escapeAction({ shift: true, hasCloseTarget: true, context: context({ signedIn: true }) })).toBe('close');
  });

  it('logs out with shift only when signed in', () => {
    expect(escapeAction({ shift: true, hasCloseTarget: false, context: context({ signedIn: true }) })).toBe('logout');
    expect(escapeAction({ shift: true, hasCloseTarget: false, context: context({ escapeToLogin: true }) })).toBe('none');
  });

  it('goes to configuration when signed in, else shows the login prompt when the site allows it', () => {
    expect(escapeAction({ shift: false, hasCloseTarget: false, context: context({ signedIn: true }) })).toBe('config');
    expect(escapeAction({ shift: false, hasCloseTarget: false, context: context({ escapeToLogin: true }) })).toBe('login');
    expect(escapeAction({ shift: false, hasCloseTarget: false, context: context({}) })).toBe('none');
    expect(escapeAction({ shift: false, hasCloseTarget: false, context: null })).toBe('none');
  });
});

describe('onEscape', () => {
  const win = { location: { pathname: '/blog', search: '?tag=a b', assign: vi.fn() } } as unknown as Window;

  it('closes the most recent target, once', async () => {
    const first = vi.fn();
    const second = vi.fn();
    registerCloseTarget(first);
    const unregister = registerCloseTarget(second);
    const handlers = { logout: vi.fn(), login: vi.fn() };
    expect(await onEscape(win, context({ escapeToLogin: true }), false, handlers)).toBe('close');
    expect(second).toHaveBeenCalledOnce();
    expect(first).not.toHaveBeenCalled();
    unregister();
    expect(await onEscape(win, context({ escapeToLogin: true }), false, handlers)).toBe('close');
    expect(first).toHaveBeenCalledOnce();
    expect(await onEscape(win, context({ escapeToLogin: true }), false, handlers)).toBe('login');
    expect(handlers.login).toHaveBeenCalledOnce();
  });

  it('sends a signed-in account to configuration with the encoded page', async () => {
    const handlers = { logout: vi.fn(), login: vi.fn() };
    expect(await onEscape(win, context({ signedIn: true }), false, handlers)).toBe('config');
    expect(win.location.assign).toHaveBeenCalledWith('/config/?frameUrl=%2Fblog%3Ftag%3Da%20b');
    expect(await onEscape(win, context({ signedIn: true }), true, handlers)).toBe('logout');
    expect(handlers.logout).toHaveBeenCalledOnce();
  });
});
