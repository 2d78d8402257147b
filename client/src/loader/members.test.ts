import { afterEach, describe, expect, it, vi } from 'vitest';
import { context } from '../members/test-support';
import { watchMembers } from './members';

type Chunk = Awaited<ReturnType<NonNullable<Parameters<typeof watchMembers>[2]>>>;

/** A stand-in for the members chunk that records what it was handed. */
function fakeChunk() {
  const handle = vi.fn();
  const load = vi.fn(async () => ({ handle }) as unknown as Chunk);
  return { handle, load };
}

function setUp(url: string, html = '') {
  const doc = document.implementation.createHTMLDocument('x');
  doc.body.innerHTML = html;
  const win = { document: doc, location: Object.assign(new URL(url), { assign: vi.fn() }) } as unknown as Window;
  return { doc, win };
}

function press(target: EventTarget): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

function click(target: Element, init: MouseEventInit = {}): MouseEvent {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  target.dispatchEvent(event);
  return event;
}

describe('the members hook', () => {
  afterEach(() => vi.restoreAllMocks());

  it('loads nothing for a visitor until escape is pressed', async () => {
    const { handle, load } = fakeChunk();
    const { doc, win } = setUp('https://cafe.example/');
    const ctx = context({});
    watchMembers(win, ctx, load);
    expect(load).not.toHaveBeenCalled();
    const event = press(doc.body);
    await vi.waitFor(() => expect(handle).toHaveBeenCalledWith(win, ctx, event));
  });

  it('takes an escape press over an open non-modal dialog, which only the registry closes', async () => {
    const { handle, load } = fakeChunk();
    const { doc, win } = setUp('https://cafe.example/', '<dialog open></dialog>');
    watchMembers(win, context({ escapeToLogin: true }), load);
    const event = press(doc.body);
    await vi.waitFor(() => expect(handle).toHaveBeenCalledWith(win, expect.anything(), event));
  });

  it('takes plain clicks on login and logout controls, not modified ones', async () => {
    const { handle, load } = fakeChunk();
    const { doc, win } = setUp('https://cafe.example/', '<a href="/account/login" data-action="login"><span>Log in</span></a>');
    watchMembers(win, context({}), load);
    const span = doc.querySelector('span')!;
    expect(click(span, { ctrlKey: true }).defaultPrevented).toBe(false);
    expect(load).not.toHaveBeenCalled();
    const plain = click(span);
    expect(plain.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(handle).toHaveBeenCalledWith(win, expect.anything(), plain));
  });

  it('follows the link when the chunk cannot load', async () => {
    const load = vi.fn(async () => Promise.reject(new Error('offline')));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { doc, win } = setUp('https://cafe.example/', '<a href="/account/login" data-action="login">Log in</a>');
    watchMembers(win, context({}), load);
    click(doc.querySelector('a')!);
    await vi.waitFor(() => expect(win.location.assign).toHaveBeenCalledWith('/account/login'));
  });

  it('starts the chunk at once for a signed-in account and on the logout landing', async () => {
    for (const [ctx, url] of [
      [context({ signedIn: true }), 'https://cafe.example/'],
      [context({}), 'https://cafe.example/?x=1&logout=true'],
    ] as const) {
      const { handle, load } = fakeChunk();
      const { win } = setUp(url);
      watchMembers(win, ctx, load);
      await vi.waitFor(() => expect(handle).toHaveBeenCalledWith(win, ctx, undefined));
    }
  });
});
