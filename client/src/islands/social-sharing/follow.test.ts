import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FOLLOW_SCRIPT_URL, startFollow } from './follow';
import { FOLLOW_SCRIPT_TIMEOUT_MS, loadScript } from '../../widgets/script/script';

function follow(): HTMLElement {
  document.head.innerHTML = '';
  document.body.innerHTML = '<p class="social-follow"><a class="button" href="https://x.com/verandacafe">Follow @verandacafe</a></p>';
  return document.querySelector('p')!;
}
const script = () => document.head.querySelector<HTMLScriptElement>(`script[src="${FOLLOW_SCRIPT_URL}"]`);

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  delete (window as { twttr?: unknown }).twttr;
});

describe('the follow widget script', () => {
  it('gives up after 10 s and leaves the link as it is', async () => {
    expect(FOLLOW_SCRIPT_TIMEOUT_MS).toBe(10_000);
    const el = follow();
    const done = startFollow(window, el, 'verandacafe');
    expect(script()?.async).toBe(true);
    expect(el.dataset.followState).toBe('loading');
    await vi.advanceTimersByTimeAsync(FOLLOW_SCRIPT_TIMEOUT_MS - 1);
    expect(el.dataset.followState).toBe('loading');
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toBe('failed');
    expect(el.dataset.followState).toBe('failed');
    expect(script()).toBeNull();
    expect(el.querySelector('a')!.textContent).toBe('Follow @verandacafe');
  });

  it('fails at once when the script cannot load, and may be tried again', async () => {
    const el = follow();
    const done = startFollow(window, el, 'verandacafe');
    script()!.dispatchEvent(new Event('error'));
    expect(await done).toBe('failed');
    const again = loadScript(document, FOLLOW_SCRIPT_URL, FOLLOW_SCRIPT_TIMEOUT_MS);
    expect(script()).not.toBeNull();
    script()!.dispatchEvent(new Event('error'));
    await expect(again).rejects.toThrow('Could not load');
  });

  it('makes the follow button once the script has loaded', async () => {
    const el = follow();
    const createFollowButton = vi.fn(() => Promise.resolve({}));
    const done = startFollow(window, el, 'verandacafe');
    (window as { twttr?: unknown }).twttr = { widgets: { createFollowButton } };
    script()!.dispatchEvent(new Event('load'));
    expect(await done).toBe('loaded');
    expect(createFollowButton).toHaveBeenCalledWith('verandacafe', expect.any(HTMLElement), { showCount: false });
    await vi.advanceTimersByTimeAsync(FOLLOW_SCRIPT_TIMEOUT_MS);
    expect(el.dataset.followState).toBe('loaded');
  });

  it('waits for the page to load before adding a script, and counts its 10 s from then', async () => {
    follow();
    const url = 'https://example.com/after-load.js';
    const added = () => document.head.querySelector(`script[src="${url}"]`);
    const readyState = vi.spyOn(document, 'readyState', 'get').mockReturnValue('interactive');
    const load = loadScript(document, url, FOLLOW_SCRIPT_TIMEOUT_MS);
    let outcome = 'pending';
    load.then(
      () => (outcome = 'loaded'),
      () => (outcome = 'failed'),
    );
    await vi.advanceTimersByTimeAsync(FOLLOW_SCRIPT_TIMEOUT_MS);
    expect(added(), 'nothing added while the page is still loading').toBeNull();
    expect(outcome).toBe('pending');
    readyState.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    expect(added()).not.toBeNull();
    await vi.advanceTimersByTimeAsync(FOLLOW_SCRIPT_TIMEOUT_MS - 1);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('failed');
    expect(added(), 'a script given up on is taken out').toBeNull();
    readyState.mockRestore();
  });

  it('adds the script to the page once for several buttons', () => {
    follow();
    const a = loadScript(document, 'https://example.com/once.js', 1000);
    const b = loadScript(document, 'https://example.com/once.js', 1000);
    expect(a).toBe(b);
    expect(document.head.querySelectorAll('script[src="https://example.com/once.js"]').length).toBe(1);
  });
});
