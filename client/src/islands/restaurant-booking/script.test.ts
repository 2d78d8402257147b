import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageContext } from '../../generated/types';
import { startBooking } from './index';
import {
  BOOKING_SCRIPT_TIMEOUT_MS,
  OPENTABLE_SCRIPT_URL,
  TOCK_CONTAINER_ID,
  TOCK_SCRIPT_URL,
  bookingScriptUrl,
  startBookingWidget,
} from './script';

/** A booking block as the server renders it, `width` px wide. */
function block(width = 700): HTMLElement {
  document.body.innerHTML = `<section class="block block--restaurant-booking"><h2>Reserve a table at Veranda</h2>
    <p><a class="button" href="https://www.opentable.com/restref/client/?rid=1">Book a table</a></p></section>`;
  const el = document.querySelector('section')!;
  Object.defineProperty(el, 'clientWidth', { get: () => width });
  return el;
}

const scripts = () => [...document.querySelectorAll<HTMLScriptElement>('script')];
const link = (el: HTMLElement) => el.querySelector<HTMLAnchorElement>('a.button');

/** The page context of a site with (or without) the restrictive cookie policy and a signed-in account. */
function context({ restrictive = false, signedIn = false } = {}): PageContext {
  return {
    websiteSettings: { cookieSettings: { isAnalyticsCookiesDisabled: restrictive } },
    authenticatedAccount: signedIn ? { id: 'a1' } : null,
  } as unknown as PageContext;
}

/** Each test books a different restaurant: a script that loaded stays loaded for the page. */
let next = 0;
const restaurant = () => `r${(next += 1)}-${Date.now()}`;

function setCookie(value: string): void {
  document.cookie = value;
}

beforeEach(() => {
  vi.useFakeTimers();
  document.head.innerHTML = '';
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  delete window.Veranda;
  delete (window as { tock?: unknown }).tock;
  delete (window as { _tock?: unknown })._tock;
  setCookie('ss_cookieAllowed=; path=/; max-age=0');
  document.body.innerHTML = '';
});

describe('the provider script URL', () => {
  it('names the OpenTable restaurant, encoded, with the theme of the block width', () => {
    expect(bookingScriptUrl('opentable', '412233', 700)).toBe(
      `${OPENTABLE_SCRIPT_URL}?rid=412233&type=standard&theme=standard&iframe=true&domain=com&lang=en-US&newtab=false`,
    );
    expect(bookingScriptUrl('OpenTable', '412233', 851)).toContain('&theme=wide&');
    const odd = new URL(bookingScriptUrl('opentable', ' a b&rid=9#x ', 700)!);
    expect(odd.searchParams.getAll('rid')).toEqual(['a b&rid=9#x']);
    expect(odd.hash).toBe('');
  });

  it('is the one Tock script for every restaurant, and nothing for an unknown provider or no id', () => {
    expect(bookingScriptUrl('tock', 'veranda-supper-club', 700)).toBe(TOCK_SCRIPT_URL);
    expect(bookingScriptUrl('resy', '1', 700)).toBeNull();
    expect(bookingScriptUrl('opentable', '  ', 700)).toBeNull();
  });
});

describe('the provider widget script', () => {
  it('loads into the block, loading then loaded, and the link stays', async () => {
    const el = block();
    const id = restaurant();
    const done = startBookingWidget(window, el, 'opentable', id);
    expect(el.dataset.state).toBe('loading');
    const script = el.querySelector<HTMLScriptElement>('.restaurant-booking__widget script')!;
    expect(script.async).toBe(true);
    expect(script.src).toBe(bookingScriptUrl('opentable', id, 700));
    script.dispatchEvent(new Event('load'));
    expect(await done).toBe('loaded');
    expect(el.dataset.state).toBe('loaded');
    await vi.advanceTimersByTimeAsync(BOOKING_SCRIPT_TIMEOUT_MS);
    expect(el.dataset.state).toBe('loaded');
    expect(link(el)?.textContent).toBe('Book a table');
  });

  it('fails at once when the script cannot load, leaving the link as the way to book', async () => {
    const el = block();
    const done = startBookingWidget(window, el, 'opentable', restaurant());
    el.querySelector('script')!.dispatchEvent(new Event('error'));
    expect(await done).toBe('failed');
    expect(el.dataset.state).toBe('failed');
    expect(el.querySelector('.restaurant-booking__widget')).toBeNull();
    expect(link(el)?.getAttribute('href')).toBe('https://www.opentable.com/restref/client/?rid=1');
  });

  it('gives up after 10 s', async () => {
    expect(BOOKING_SCRIPT_TIMEOUT_MS).toBe(10_000);
    const el = block();
    const done = startBookingWidget(window, el, 'opentable', restaurant());
    await vi.advanceTimersByTimeAsync(BOOKING_SCRIPT_TIMEOUT_MS - 1);
    expect(el.dataset.state).toBe('loading');
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toBe('failed');
    expect(el.dataset.state).toBe('failed');
    expect(scripts()).toEqual([]);
    expect(link(el)).not.toBeNull();
  });

  it("queues Tock's init with the restaurant and gives it its container", async () => {
    const el = block();
    const done = startBookingWidget(window, el, 'tock', ' veranda-supper-club ');
    const tock = (window as { tock?: { queue: unknown[][] } }).tock!;
    expect(tock.queue).toEqual([['init', 'veranda-supper-club']]);
    expect(el.querySelector(`#${TOCK_CONTAINER_ID}`)).not.toBeNull();
    const script = document.head.querySelector<HTMLScriptElement>(`script[src="${TOCK_SCRIPT_URL}"]`)!;
    script.dispatchEvent(new Event('load'));
    expect(await done).toBe('loaded');
  });

  it('does nothing for an unknown provider', async () => {
    const el = block();
    expect(await startBookingWidget(window, el, 'resy', 'x')).toBeNull();
    expect(el.dataset.state).toBeUndefined();
    expect(scripts()).toEqual([]);
  });
});

describe('who gets the provider widget', () => {
  it('a visitor on a site without the restrictive policy', async () => {
    window.Veranda = { context: context() };
    const el = block();
    const done = startBooking(window, el, { provider: 'opentable', restaurantId: restaurant() });
    await vi.advanceTimersByTimeAsync(0);
    expect(el.dataset.state).toBe('loading');
    el.querySelector('script')!.dispatchEvent(new Event('load'));
    expect(await done).toBe('loaded');
  });

  it('no one without consent under the restrictive policy; once accepted, yes', async () => {
    window.Veranda = { context: context({ restrictive: true }) };
    const refused = block();
    expect(await startBooking(window, refused, { provider: 'opentable', restaurantId: restaurant() })).toBe('not-allowed');
    expect(scripts()).toEqual([]);
    expect(refused.dataset.state).toBeUndefined();
    setCookie('ss_cookieAllowed=false; path=/');
    expect(await startBooking(window, block(), { provider: 'tock', restaurantId: 'x' })).toBe('not-allowed');
    expect(scripts()).toEqual([]);
    setCookie('ss_cookieAllowed=true; path=/');
    const allowed = block();
    void startBooking(window, allowed, { provider: 'opentable', restaurantId: restaurant() });
    await vi.advanceTimersByTimeAsync(0);
    expect(allowed.dataset.state).toBe('loading');
    expect(scripts()).toHaveLength(1);
  });

  it('not a signed-in owner, who gets the preview only', async () => {
    window.Veranda = { context: context({ signedIn: true }) };
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ id: 'a1', owner: true }), { status: 200 }));
    vi.stubGlobal('fetch', fetcher);
    const el = block();
    expect(await startBooking(window, el, { provider: 'opentable', restaurantId: restaurant() })).toBe('preview');
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(el.dataset.previewOnly).toBe('true');
    expect(el.dataset.state).toBeUndefined();
    expect(scripts()).toEqual([]);
    await vi.advanceTimersByTimeAsync(BOOKING_SCRIPT_TIMEOUT_MS);
    expect(scripts()).toEqual([]);
  });

  it('a signed-in member who is not the owner', async () => {
    window.Veranda = { context: context({ signedIn: true }) };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ id: 'm1', owner: false }), { status: 200 })));
    const el = block();
    const done = startBooking(window, el, { provider: 'opentable', restaurantId: restaurant() });
    await vi.advanceTimersByTimeAsync(0);
    expect(el.dataset.state).toBe('loading');
    el.querySelector('script')!.dispatchEvent(new Event('load'));
    expect(await done).toBe('loaded');
    expect(el.dataset.previewOnly).toBeUndefined();
  });
});
