import { afterEach, describe, expect, it, vi } from 'vitest';
import { handle, startMembers } from './index';
import { context } from './test-support';

describe('startMembers', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it('shows the hidden logout control to a signed-in member, and no one else', () => {
    document.body.innerHTML = '<button data-action="logout" hidden>Log out</button>';
    startMembers(window, context({}));
    expect(document.querySelector('button')!.hidden).toBe(true);
    startMembers(window, context({ signedIn: true }));
    expect(document.querySelector('button')!.hidden).toBe(false);
  });

  it('opens the dialog on the logout landing', () => {
    window.history.replaceState(null, '', '/?logout=true');
    document.body.innerHTML = '<main id="main"></main>';
    startMembers(window, context({}));
    expect(document.querySelector('dialog.logout-dialog')?.hasAttribute('open')).toBe(true);
  });
});

describe('handle', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('opens the login prompt for escape outside fields when the site allows it', async () => {
    document.body.innerHTML = '<main id="main"><input id="q"></main>';
    const ctx = context({ escapeToLogin: true });
    const inField = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true });
    document.getElementById('q')!.dispatchEvent(inField);
    handle(window, ctx, inField);
    expect(document.querySelector('dialog.login-prompt')).toBeNull();
    const outside = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true });
    document.body.dispatchEvent(outside);
    handle(window, ctx, outside);
    await vi.dynamicImportSettled();
    expect(document.querySelector('dialog.login-prompt')?.hasAttribute('open')).toBe(true);
  });

  it('opens the login prompt for a click on a login link', () => {
    document.body.innerHTML = '<a href="/account/login" data-action="login">Log in</a>';
    const event = new MouseEvent('click', { bubbles: true });
    document.querySelector('a')!.dispatchEvent(event);
    handle(window, context({}), event);
    expect(document.querySelector('dialog.login-prompt')?.hasAttribute('open')).toBe(true);
  });
});
