import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataRequest } from '../data/index';
import { LOGIN_FAILED, SESSION_URL, SIGNING_IN, openLoginPrompt } from './login-prompt';
import { scriptFetch, setCrumb } from './test-support';

function fill(dialog: HTMLDialogElement, email: string, password: string): void {
  dialog.querySelector<HTMLInputElement>('#login-prompt-email')!.value = email;
  dialog.querySelector<HTMLInputElement>('#login-prompt-password')!.value = password;
}

function submit(dialog: HTMLDialogElement): void {
  dialog.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true, bubbles: true }));
}

describe('the login prompt', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    document.cookie = 'crumb=; path=/; max-age=0';
  });

  it('opens as a dialog with focus on the email field, and Cancel returns focus to the link', () => {
    document.body.innerHTML = '<main></main><a href="/account/login?returnUrl=%2Fmembers" data-action="login">Log in</a>';
    const link = document.querySelector('a')!;
    link.focus();
    const dialog = openLoginPrompt(window, link, { request: dataRequest, navigate: vi.fn() });
    expect(dialog.open).toBe(true);
    expect(dialog.getAttribute('aria-labelledby')).toBe('login-prompt-title');
    expect(document.activeElement?.id).toBe('login-prompt-email');
    expect(dialog.textContent).not.toMatch(/create/i);
    dialog.querySelector<HTMLButtonElement>('[data-close]')!.click();
    expect(dialog.open).toBe(false);
    expect(document.activeElement).toBe(link);
  });

  it('posts the JSON sign-in with the crumb and goes to the return path', async () => {
    setCrumb('page.crumb');
    document.body.innerHTML = '<a href="/account/login?returnUrl=%2Fmembers" data-action="login">Log in</a>';
    const fetch = scriptFetch({ status: 200, body: { xsrfToken: 'new.crumb', account: {} } });
    const navigate = vi.fn();
    const dialog = openLoginPrompt(window, document.querySelector('a'), { request: dataRequest, navigate });
    fill(dialog, 'ann@example.com', 'porch swing');
    dialog.querySelector<HTMLInputElement>('input[name="rememberMe"]')!.checked = true;
    submit(dialog);
    expect(dialog.querySelector('button[type="submit"]')!.textContent).toBe(SIGNING_IN);
    submit(dialog);
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/members'));
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(new URL(url, window.location.href).pathname).toBe(SESSION_URL);
    expect(new URL(url, window.location.href).searchParams.get('crumb')).toBe('page.crumb');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'ann@example.com', password: 'porch swing', rememberMe: true });
  });

  it('refuses to return to another site', async () => {
    document.body.innerHTML = '<a href="/account/login?returnUrl=%2F%2Fevil.example" data-action="login">Log in</a>';
    window.history.replaceState(null, '', '/private?x=1');
    scriptFetch({ status: 200, body: { xsrfToken: 'c.c' } });
    const navigate = vi.fn();
    const dialog = openLoginPrompt(window, document.querySelector('a'), { request: dataRequest, navigate });
    fill(dialog, 'ann@example.com', 'pw');
    submit(dialog);
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/private?x=1'));
    window.history.replaceState(null, '', '/');
  });

  it('announces a refusal and marks the email field invalid', async () => {
    scriptFetch({ status: 401, body: { error: LOGIN_FAILED } });
    const navigate = vi.fn();
    const dialog = openLoginPrompt(window, null, { request: dataRequest, navigate });
    fill(dialog, 'ann@example.com', 'wrong');
    submit(dialog);
    const alert = dialog.querySelector<HTMLElement>('[role="alert"]')!;
    await vi.waitFor(() => expect(alert.hidden).toBe(false));
    expect(alert.textContent).toBe(LOGIN_FAILED);
    const email = dialog.querySelector('#login-prompt-email')!;
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(alert.id);
    expect(document.activeElement).toBe(email);
    expect(dialog.querySelector('button[type="submit"]')!.textContent).toBe('Log in');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('asks for both fields before calling the server', () => {
    const request = vi.fn();
    const dialog = openLoginPrompt(window, null, { request, navigate: vi.fn() });
    submit(dialog);
    expect(request).not.toHaveBeenCalled();
    expect(dialog.querySelector('[role="alert"]')!.textContent).toMatch(/email address and password/);
  });
});
