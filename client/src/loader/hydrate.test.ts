import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hydrateIslands, STATE_ATTRIBUTE } from './hydrate';
import { chunks } from './island-chunks';
import { islands, type IslandImport, type IslandModule } from './islands';

/** An IntersectionObserver the test drives by hand. */
class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly observed = new Set<Element>();
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(el: Element) {
    this.observed.add(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.disconnected = true;
    this.observed.clear();
  }
  takeRecords() {
    return [];
  }
  /** Reports `el` as intersecting (or not) to the callback. */
  fire(el: Element, isIntersecting: boolean) {
    if (this.disconnected || !this.observed.has(el)) return;
    const entry = { target: el, isIntersecting } as IntersectionObserverEntry;
    this.callback([entry], this as unknown as IntersectionObserver);
  }
}

/** Lets pending promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function fakeIsland() {
  const mount = vi.fn<IslandModule['mount']>();
  const load = vi.fn<IslandImport>(async () => ({ mount }));
  return { mount, load };
}

beforeEach(() => {
  FakeIntersectionObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('islands', () => {
  it('are imported and mounted with their data once they become visible', async () => {
    document.body.innerHTML = `<div id="block-1" data-island="menu-tabs" data-block-json='{"tabs":[]}'></div>`;
    const el = document.getElementById('block-1')!;
    const island = fakeIsland();
    expect(hydrateIslands(document, { 'menu-tabs': island.load })).toBe(1);

    const observer = FakeIntersectionObserver.instances[0]!;
    expect(observer.options?.rootMargin).toBe('200px');
    observer.fire(el, false);
    await settle();
    expect(island.load).not.toHaveBeenCalled();

    observer.fire(el, true);
    await settle();
    expect(island.load).toHaveBeenCalledOnce();
    expect(island.mount).toHaveBeenCalledWith(el, { tabs: [] });
    expect(el.getAttribute(STATE_ATTRIBUTE)).toBe('mounted');

    // Later interactions do not import or mount again.
    el.dispatchEvent(new Event('focusin'));
    el.dispatchEvent(new Event('pointerenter'));
    await settle();
    expect(island.load).toHaveBeenCalledOnce();
    expect(island.mount).toHaveBeenCalledOnce();
  });

  it('are imported on first interaction before they are seen', async () => {
    document.body.innerHTML = `<div id="b" data-island="menu-tabs"></div>`;
    const el = document.getElementById('b')!;
    const island = fakeIsland();
    hydrateIslands(document, { 'menu-tabs': island.load });
    el.dispatchEvent(new Event('focusin', { bubbles: true }));
    await settle();
    expect(island.mount).toHaveBeenCalledWith(el, null);
    expect(FakeIntersectionObserver.instances[0]!.disconnected).toBe(true);
  });

  it('load at once when IntersectionObserver is missing', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    document.body.innerHTML = `<div data-island="menu-tabs" data-block-json="[1]"></div>`;
    const island = fakeIsland();
    hydrateIslands(document, { 'menu-tabs': island.load });
    await settle();
    expect(island.mount).toHaveBeenCalledOnce();
    expect(island.mount.mock.calls[0]![1]).toEqual([1]);
  });

  it('with invalid data-block-json are skipped with a warning, never thrown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    document.body.innerHTML = `<div id="bad" data-island="menu-tabs" data-block-json="{tabs:"></div>
      <div id="good" data-island="menu-tabs" data-block-json="{}"></div>`;
    const island = fakeIsland();
    expect(hydrateIslands(document, { 'menu-tabs': island.load })).toBe(1);
    expect(warn).toHaveBeenCalledOnce();
    expect(String(warn.mock.calls[0]![0])).toContain('bad');
    expect(FakeIntersectionObserver.instances).toHaveLength(1);
    const good = document.getElementById('good')!;
    FakeIntersectionObserver.instances[0]!.fire(good, true);
    await settle();
    expect(island.mount).toHaveBeenCalledWith(good, {});
  });

  it('with invalid data-block-json or a failing chunk are written to the trace log', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('IntersectionObserver', undefined);
    const log = vi.fn();
    window.Veranda = { context: null, telemetry: { trace: { log, flush: () => {} } } as never };
    document.body.innerHTML = `<div id="bad" data-island="menu-tabs" data-block-json="{tabs:"></div>
      <div id="good" data-island="menu-tabs" data-block-json="{}"></div>`;
    hydrateIslands(document, { 'menu-tabs': () => Promise.reject(new Error('chunk 404')) });
    await settle();
    delete window.Veranda;
    expect(log.mock.calls.map(([type]) => type)).toEqual(['block-data-undecodable', 'island-failed']);
    expect(log.mock.calls[0]![1]).toMatchObject({ message: 'Veranda: bad has invalid data-block-json; left as is.' });
    expect(log.mock.calls[1]![1]).toEqual({ message: 'Veranda: the menu-tabs island could not start.', error: 'Error: chunk 404' });
  });

  it('of an unknown kind are left alone', async () => {
    document.body.innerHTML = `<div id="u" data-island="no-such-island" data-block-json="{}">server html</div>
      <div data-island="constructor"></div><div data-island=""></div>`;
    const island = fakeIsland();
    expect(hydrateIslands(document, { 'menu-tabs': island.load })).toBe(0);
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
    const el = document.getElementById('u')!;
    el.dispatchEvent(new Event('focusin'));
    await settle();
    expect(island.load).not.toHaveBeenCalled();
    expect(el.hasAttribute(STATE_ATTRIBUTE)).toBe(false);
    expect(el.textContent).toBe('server html');
  });

  it('that fail to import are marked failed and reported', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    document.body.innerHTML = `<div id="f" data-island="menu-tabs"></div>`;
    const el = document.getElementById('f')!;
    hydrateIslands(document, { 'menu-tabs': () => Promise.reject(new Error('offline')) });
    el.dispatchEvent(new Event('pointerenter'));
    await settle();
    expect(el.getAttribute(STATE_ATTRIBUTE)).toBe('failed');
    expect(error).toHaveBeenCalledOnce();
  });

  it('in the registry resolve to modules with a mount function', async () => {
    expect(Object.keys(islands)).toContain('menu-tabs');
    expect(Object.keys(islands).sort()).toEqual(Object.keys(chunks).sort());
    for (const load of Object.values(islands)) {
      const module = await load();
      expect(typeof module.mount).toBe('function');
    }
  });

  it('in the registry are the kinds the server marks, and no block kind that is complete as server HTML', () => {
    const expected = [
      'accordion', 'add-to-cart', 'announcement-bar', 'button', 'cart', 'cart-badge', 'form', 'gallery', 'map', 'marquee',
      'member-area', 'menu-tabs', 'newsletter', 'quick-view', 'restaurant-booking', 'scaled-text', 'search', 'social-sharing', 'summary', 'video',
    ];
    expect(Object.keys(islands).sort()).toEqual(expected);
  });
});
