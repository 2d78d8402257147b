import { afterEach, describe, expect, it } from 'vitest';
import { LOGOUT_MESSAGE, LOGOUT_TITLE, isLogoutLanding, showLogoutDialog } from './logout-dialog';

describe('the Logout Successful dialog', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    window.history.replaceState(null, '', '/');
  });

  it('opens with focus on Close, and on close returns focus to the page and drops ?logout', () => {
    window.history.replaceState(null, '', '/?logout=true&x=1');
    document.body.innerHTML = '<main id="main" tabindex="-1"><h1>Home</h1></main>';
    expect(isLogoutLanding(window.location)).toBe(true);
    const dialog = showLogoutDialog(window);
    expect(dialog.open).toBe(true);
    expect(dialog.querySelector('h2')?.textContent).toBe(LOGOUT_TITLE);
    expect(dialog.querySelector('p')?.textContent).toBe(LOGOUT_MESSAGE);
    expect(dialog.getAttribute('aria-labelledby')).toBe('logout-dialog-title');
    const close = dialog.querySelector('button')!;
    expect(document.activeElement).toBe(close);
    close.click();
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(document.getElementById('main'));
    expect(window.location.search).toBe('?x=1');
    expect(isLogoutLanding(window.location)).toBe(false);
  });

  it('takes over the dialog the server rendered', () => {
    document.body.innerHTML = `<main id="main"></main><dialog open class="logout-dialog">
      <h2 id="logout-dialog-title">Logout Successful</h2><form method="dialog"><button type="submit" autofocus>Close</button></form></dialog>`;
    const dialog = showLogoutDialog(window);
    expect(document.querySelectorAll('dialog').length).toBe(1);
    expect(document.activeElement).toBe(dialog.querySelector('button'));
  });
});
