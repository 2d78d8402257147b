import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGOUT_LANDING, LOGOUT_URL, logOut } from './logout';
import { scriptFetch, setCrumb } from './test-support';

describe('logging out', () => {
  afterEach(() => {
    document.cookie = 'crumb=; path=/; max-age=0';
  });

  it('calls DELETE on the session with the crumb and goes to the landing', async () => {
    setCrumb('old.crumb');
    const fetch = scriptFetch({ status: 200, body: { loggedOut: true } });
    const navigate = vi.fn();
    await expect(logOut(window, { navigate })).resolves.toBe(true);
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(init?.method).toBe('DELETE');
    const sent = new URL(url, window.location.href);
    expect(sent.pathname + '?cloneCart=false').toBe(LOGOUT_URL);
    expect(sent.searchParams.get('crumb')).toBe('old.crumb');
    expect(navigate).toHaveBeenCalledWith(LOGOUT_LANDING);
  });

  it('repeats the call once with the new crumb after a crumbFail', async () => {
    setCrumb('stale.crumb');
    const fetch = scriptFetch(
      { status: 403, body: { crumbFail: true, crumb: 'fresh.crumb', error: 'stale' } },
      { status: 200, body: { loggedOut: true } },
    );
    const navigate = vi.fn();
    await expect(logOut(window, { navigate })).resolves.toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(new URL(fetch.mock.calls[1]![0], window.location.href).searchParams.get('crumb')).toBe('fresh.crumb');
    expect(navigate).toHaveBeenCalledWith(LOGOUT_LANDING);
  });

  it('gives up after the one retry and stays on the page', async () => {
    setCrumb('stale.crumb');
    const crumbFail = { status: 403, body: { crumbFail: true, crumb: 'again.crumb', error: 'stale' } };
    const fetch = scriptFetch(crumbFail, crumbFail, { status: 200, body: { loggedOut: true } });
    const navigate = vi.fn();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(logOut(window, { navigate })).resolves.toBe(false);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(navigate).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalled();
  });
});
