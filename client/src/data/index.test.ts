import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DataError, LOGIN_REQUIRED_EVENT, RETRY_DELAY_MS, currentCrumb, dataRequest } from './index';
import { INTERNAL_SERVER_ERROR, SERVICE_UNAVAILABLE, UNABLE_TO_CONNECT, UNAUTHORIZED } from './messages';
import { OVERLAY_ID, overlayActions } from './overlay';

const openLoginPrompt = vi.hoisted(() => vi.fn());
vi.mock('../members/index', () => ({ openLoginPrompt }));

type Call = { url: URL; init: RequestInit };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Mocks fetch with the answers in order (an Error rejects); returns the calls seen. */
function answer(...responses: Array<Response | Error>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      calls.push({ url: new URL(input), init });
      const next = responses.shift();
      if (!next) throw new Error('no more answers');
      if (next instanceof Error) throw next;
      return next;
    }),
  );
  return calls;
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

async function failure(promise: Promise<unknown>): Promise<DataError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataError);
  return error as DataError;
}

beforeEach(() => {
  clearCookies();
  document.cookie = 'crumb=abc.DEF; path=/';
});

afterEach(() => {
  document.body.innerHTML = '';
  clearCookies();
  vi.useRealTimers();
});

describe('the data layer', () => {
  it('read the crumb from its cookie', () => {
    expect(currentCrumb()).toBe('abc.DEF');
    clearCookies();
    expect(currentCrumb()).toBeUndefined();
  });

  it('send the crumb as a query parameter and header, with cookies, and resolve with the JSON', async () => {
    const calls = answer(json(200, { key: 'k1' }));
    const body = await dataRequest<{ key: string }>({ url: '/api/form/FormSubmissionKey', method: 'POST', asJson: true });
    expect(body).toEqual({ key: 'k1' });
    expect(calls[0]!.url.pathname).toBe('/api/form/FormSubmissionKey');
    expect(calls[0]!.url.searchParams.get('crumb')).toBe('abc.DEF');
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers['X-CSRF-Token']).toBe('abc.DEF');
    expect(calls[0]!.init.credentials).toBe('same-origin');
    expect(calls[0]!.init.body).toBe('{}');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('send form-encoded bodies unless asked for JSON, and GET data in the query string', async () => {
    const calls = answer(json(200, {}), json(200, {}));
    await dataRequest({ url: '/api/x', method: 'POST', data: { a: 'one two', b: 2, c: { d: true }, e: null } });
    expect(calls[0]!.init.body).toBe('a=one+two&b=2&c=%7B%22d%22%3Atrue%7D');
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/);
    await dataRequest({ url: '/api/y?z=1', data: { q: 'coffee' } });
    expect(calls[1]!.init.method).toBe('GET');
    expect(calls[1]!.init.body).toBeUndefined();
    expect(calls[1]!.url.searchParams.get('z')).toBe('1');
    expect(calls[1]!.url.searchParams.get('q')).toBe('coffee');
  });

  it('store the new crumb of a crumbFail answer and retry once', async () => {
    const calls = answer(json(403, { crumbFail: true, crumb: 'new.CRUMB', error: 'stale' }), json(200, { ok: true }));
    await expect(dataRequest({ url: '/api/auth/Logout', method: 'POST' })).resolves.toEqual({ ok: true });
    expect(currentCrumb()).toBe('new.CRUMB');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.url.searchParams.get('crumb')).toBe('new.CRUMB');
    expect((calls[1]!.init.headers as Record<string, string>)['X-CSRF-Token']).toBe('new.CRUMB');
  });

  it('give up after the one crumb retry', async () => {
    const fail = { crumbFail: true, crumb: 'again.X', error: 'stale' };
    const calls = answer(json(403, fail), json(403, fail));
    const onFailure = vi.fn();
    const error = await failure(dataRequest({ url: '/api/auth/Logout', method: 'POST', onFailure }));
    expect(calls).toHaveLength(2);
    expect(error.status).toBe(403);
    expect(error.message).toBe(UNAUTHORIZED);
    expect(onFailure).toHaveBeenCalledWith(error);
  });

  it('not retry a crumbFail when cookies are disabled', async () => {
    vi.spyOn(navigator, 'cookieEnabled', 'get').mockReturnValue(false);
    const calls = answer(json(403, { crumbFail: true, crumb: 'n.X' }));
    await failure(dataRequest({ url: '/api/x', method: 'POST' }));
    expect(calls).toHaveLength(1);
    expect(currentCrumb()).toBe('abc.DEF');
  });

  it('never store a crumb that could carry cookie attributes', async () => {
    answer(json(403, { crumbFail: true, crumb: 'x; domain=evil.example' }), json(200, {}));
    await dataRequest({ url: '/api/x', method: 'POST' });
    expect(currentCrumb()).toBe('abc.DEF');
  });

  it('fire the login-required event, or call onLoginRequired instead', async () => {
    answer(json(401, { loginRequired: true, error: 'Sign in' }), json(401, { loginRequired: true }));
    const heard = vi.fn();
    window.addEventListener(LOGIN_REQUIRED_EVENT, heard);
    const onFailure = vi.fn();
    const error = await failure(dataRequest({ url: '/members', onFailure }));
    expect(heard).toHaveBeenCalledTimes(1);
    expect(error.status).toBe(401);
    expect(onFailure).not.toHaveBeenCalled();
    const onLoginRequired = vi.fn();
    await failure(dataRequest({ url: '/members', onLoginRequired }));
    expect(onLoginRequired).toHaveBeenCalledTimes(1);
    expect(heard).toHaveBeenCalledTimes(1);
    window.removeEventListener(LOGIN_REQUIRED_EVENT, heard);
  });

  it('open the sign-in prompt on loginRequired unless a listener takes the event', async () => {
    openLoginPrompt.mockClear();
    answer(json(401, { error: 'Sign in to see the orders.', loginRequired: true }));
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    await failure(dataRequest({ url: '/api/commerce/orders' }));
    await vi.waitFor(() => expect(openLoginPrompt).toHaveBeenCalledTimes(1));
    expect(openLoginPrompt.mock.calls[0]).toEqual([window, button]);
    button.remove();

    const takeOver = (event: Event) => event.preventDefault();
    window.addEventListener('veranda:login-required', takeOver);
    answer(json(401, { error: 'Sign in.', loginRequired: true }));
    await failure(dataRequest({ url: '/api/commerce/orders' }));
    window.removeEventListener('veranda:login-required', takeOver);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(openLoginPrompt).toHaveBeenCalledTimes(1);
  });

  it('show the system error overlay on authorizationFail, with Reload Page and Clear', async () => {
    answer(json(200, { authorizationFail: true, error: 'Your access has changed.' }));
    const reload = vi.spyOn(overlayActions, 'reload').mockImplementation(() => {});
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    await failure(dataRequest({ url: '/api/x', method: 'POST' }));
    const dialog = document.getElementById(OVERLAY_ID)!;
    expect(dialog.tagName).toBe('DIALOG');
    expect(dialog.getAttribute('aria-labelledby')).toBe(`${OVERLAY_ID}-title`);
    expect(dialog.textContent).toContain('Something Went Wrong');
    expect(dialog.textContent).toContain('Your access has changed.');
    const [reloadButton, clearButton] = [...dialog.querySelectorAll('button')];
    expect(reloadButton!.textContent).toBe('Reload Page');
    expect(document.activeElement).toBe(reloadButton);
    reloadButton!.click();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(clearButton!.textContent).toBe('Clear');
    clearButton!.click();
    expect(document.getElementById(OVERLAY_ID)).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('give the status messages verbatim', async () => {
    const cases: Array<[number, string]> = [
      [401, UNAUTHORIZED],
      [403, UNAUTHORIZED],
      [500, INTERNAL_SERVER_ERROR],
      [501, INTERNAL_SERVER_ERROR],
      [503, SERVICE_UNAVAILABLE],
    ];
    for (const [status, message] of cases) {
      answer(json(status, { error: 'ignored' }));
      const error = await failure(dataRequest({ url: '/api/x', retries: 3 }));
      expect([error.status, error.message]).toEqual([status, message]);
    }
  });

  it('say Unable to connect when no answer comes', async () => {
    answer(new TypeError('Failed to fetch'));
    const error = await failure(dataRequest({ url: '/api/x' }));
    expect([error.status, error.message]).toEqual([0, UNABLE_TO_CONNECT]);
    expect(error.message).toBe('Unable to connect…');
  });

  it('open the system error overlay saying Unable to connect when no answer comes', async () => {
    answer(new TypeError('Failed to fetch'));
    await failure(dataRequest({ url: '/api/x' }));
    const dialog = document.getElementById(OVERLAY_ID);
    expect(dialog?.querySelector('h2')?.textContent).toBe('Something Went Wrong');
    expect(dialog?.textContent).toContain('Unable to connect…');
  });

  it('leave the overlay closed for a failure the server answered', async () => {
    answer(json(400, { error: 'Bad field' }));
    await failure(dataRequest({ url: '/api/x', method: 'POST' }));
    expect(document.getElementById(OVERLAY_ID)).toBeNull();
  });

  it('keep the server text for other statuses, with the body for the caller', async () => {
    answer(json(400, { error: 'Bad field', errors: { email: 'no' } }));
    const error = await failure(dataRequest({ url: '/api/x', method: 'POST' }));
    expect(error.status).toBe(400);
    expect(error.message).toBe('Bad field');
    expect(error.body).toEqual({ error: 'Bad field', errors: { email: 'no' } });
  });

  it('report an answer that is not JSON', async () => {
    answer(new Response('<html>oops', { status: 200 }));
    const error = await failure(dataRequest({ url: '/api/broken' }));
    expect(error.message).toMatch(/^Internal Error: Unable to parse server response from \(\/api\/broken\) as JSON: .+/);
  });

  it('treat a 2xx answer with an error as a failure', async () => {
    answer(json(200, { error: 'Nope' }));
    const error = await failure(dataRequest({ url: '/api/x' }));
    expect([error.status, error.message]).toEqual([200, 'Nope']);
  });

  it('retry other statuses and lost connections every 200 ms while retries last', async () => {
    vi.useFakeTimers();
    const calls = answer(new TypeError('down'), json(502, {}), json(200, { done: true }));
    const result = dataRequest({ url: '/api/x', retries: 2 });
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS);
    await expect(result).resolves.toEqual({ done: true });
    expect(calls).toHaveLength(3);
  });

  it('stop retrying when the count runs out, and not retry without a count', async () => {
    vi.useFakeTimers();
    const calls = answer(json(502, {}), json(502, {}));
    const result = failure(dataRequest({ url: '/api/x', retries: 1 }));
    await vi.advanceTimersByTimeAsync(RETRY_DELAY_MS);
    const error = await result;
    expect(calls).toHaveLength(2);
    expect([error.status, error.message]).toEqual([502, UNABLE_TO_CONNECT]);
    const once = answer(json(502, {}));
    await failure(dataRequest({ url: '/api/x' }));
    expect(once).toHaveLength(1);
  });
});
