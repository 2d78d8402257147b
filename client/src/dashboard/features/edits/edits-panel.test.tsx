import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTransport, socketOf, type FakeSocket } from '../../test/fake-socket';
import { str } from '../../../spec-pins/fixtures';
import { flakyFetch, jsonFetch, loadError, loadErrors, renderWithClient, settleUntil } from '../../test/render';
import { PAST_EDITS_PATH } from './edits';
import { EditsPanel } from './edits-panel';

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

const data = (name: string, objectId = 'site-1') => ({
  name,
  actor: 'owner-1',
  action: 'save',
  objectType: 'site-header-footer',
  objectId,
  productPage: 'config',
  productSection: 'header-footer',
});

const edit = (offset: number, name: string, objectId = 'site-1') => ({
  type: 'event',
  stream: 'edits',
  epoch: 'e1',
  offset,
  at: Date.now(),
  data: data(name, objectId),
});

/** The stream's history as the server lists it: `names` at offsets 1.., the stream at the last. */
const history = (...names: string[]) => ({
  stream: 'edits',
  epoch: 'e1',
  offset: names.length,
  events: names.map((name, i) => ({ epoch: 'e1', offset: i + 1, at: Date.now() - 30_000, data: data(name) })),
});

/** Renders the panel over `answers` (or a fetch of its own) and waits for its socket. */
async function open(answers: Record<string, unknown> = { [PAST_EDITS_PATH]: history() }, asked: string[] = [], fetcher = jsonFetch(answers, asked)) {
  vi.stubGlobal('fetch', fetcher);
  const sockets: FakeSocket[] = [];
  const rendered = renderWithClient(<EditsPanel transport={fakeTransport(sockets)} />);
  await settleUntil(() => sockets.length > 0);
  return { ...rendered, sockets, socket: socketOf(sockets, 'edits') };
}

const titles = (container: HTMLElement) => [...container.querySelectorAll('li')].map((li) => li.querySelector('.feed__title')?.textContent);

describe('the edits panel', () => {
  it('lists each edit once, newest first, with event type, actor, target and a relative time', async () => {
    const { container, socket } = await open();
    expect(container.querySelector('h2')?.textContent).toBe('Edits');
    expect(container.textContent).toContain('No edits yet.');
    act(() => socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 4 }));
    expect(container.querySelector('[data-status]')?.textContent).toBe('Live');
    act(() => {
      socket.send(edit(5, 'UserSavesSiteHeaderFooter'));
      socket.send(edit(6, 'UserSavesLanguages', 'site-2'));
      socket.send(edit(6, 'UserSavesLanguages', 'site-2'));
    });
    const items = [...container.querySelectorAll('li')];
    expect(titles(container)).toEqual(['UserSavesLanguages', 'UserSavesSiteHeaderFooter']);
    expect(items[0]!.textContent).toContain('owner-1');
    expect(items[0]!.textContent).toContain('save site-header-footer site-2');
    expect(items[0]!.querySelector('time')?.textContent).toBe('just now');
  });

  it('lists the past edits first, then resumes the stream after the last listed offset', async () => {
    const asked: string[] = [];
    const { container, socket } = await open({ [PAST_EDITS_PATH]: history('A', 'B', 'C') }, asked);
    expect(asked).toEqual([PAST_EDITS_PATH]);
    expect(socket.url).toBe('/api/streams/edits?epoch=e1&offset=3');
    expect(titles(container)).toEqual(['C', 'B', 'A']);
    // Spec 001 §4: 'about {secondsDifference} seconds ago' under 60 seconds.
    expect(container.querySelector('li time')?.textContent).toBe('about 30 seconds ago');
    act(() => {
      socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 4 });
      socket.send(edit(3, 'C'));
      socket.send(edit(4, 'D'));
    });
    expect(titles(container)).toEqual(['D', 'C', 'B', 'A']);
  });

  it('follows live edits from now and says Unable to load. Try again. when the past edits cannot be listed', async () => {
    const { container, socket } = await open({});
    expect(socket.url).toBe('/api/streams/edits');
    loadError(container, 'Not here.');
    expect(container.textContent).toContain('No edits since this page opened.');
    act(() => {
      socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 0 });
      socket.send(edit(1, 'A'));
    });
    expect(titles(container)).toEqual(['A']);
  });

  it('lists the past edits on Try again after a network error, keeping the live ones the list does not hold yet', async () => {
    const net = flakyFetch({ [PAST_EDITS_PATH]: history('A', 'B', 'C') });
    const { container, socket } = await open({}, [], net.fetch);
    const retry = loadError(container, 'Network error');
    act(() => {
      socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 2 });
      socket.send(edit(3, 'C'));
      socket.send(edit(4, 'D'));
    });
    net.heal();
    act(() => retry.click());
    await settleUntil(() => titles(container).length === 4);
    expect(titles(container)).toEqual(['D', 'C', 'B', 'A']);
    expect(loadErrors(container)).toEqual([]);
  });

  it('says Unable to connect. Please try again once the stream keeps failing, and connects at once on Try again', async () => {
    const { container, sockets } = await open();
    vi.useFakeTimers();
    try {
      for (let failed = 1; failed <= 6; failed += 1) {
        act(() => sockets.at(-1)!.drop());
        if (failed < 6) act(() => vi.advanceTimersByTime(30_000));
      }
      expect(sockets).toHaveLength(6);
      const alert = container.querySelector('.panel__head [role="alert"]')!;
      expect(alert.querySelector('p')?.textContent).toBe(str('interface.unableToConnectTryAgain'));
      act(() => alert.querySelector('button')!.click());
      expect(sockets).toHaveLength(7);
      act(() => sockets.at(-1)!.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 0 }));
      expect(container.querySelector('[data-status]')?.textContent).toBe('Live');
      expect(container.querySelector('.panel__head [role="alert"]')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops the list when the server resets the stream, and keeps following', async () => {
    const { container, socket } = await open({ [PAST_EDITS_PATH]: history('A') });
    expect(container.querySelectorAll('li')).toHaveLength(1);
    act(() => {
      socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 1 });
      socket.send(edit(2, 'UserSavesSiteHeaderFooter'));
      socket.send({ type: 'reset', stream: 'edits', epoch: 'e2', offset: 9, reason: 'epoch-changed' });
    });
    expect(container.querySelectorAll('li')).toHaveLength(0);
    expect(container.textContent).toContain('The stream started over');
    act(() => socket.send({ ...edit(10, 'UserSavesLanguages'), epoch: 'e2' }));
    expect(container.querySelectorAll('li')).toHaveLength(1);
  });

  it('announces new edits politely, as one summary', async () => {
    const { container, socket } = await open();
    vi.useFakeTimers();
    try {
      const status = container.querySelector('[role="status"]')!;
      act(() => {
        socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 0 });
        socket.send(edit(1, 'A'));
        socket.send(edit(2, 'B'));
        socket.send(edit(3, 'C'));
      });
      expect(status.textContent).toBe('');
      act(() => vi.advanceTimersByTime(3_000));
      expect(status.textContent).toBe('3 new edits');
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes its socket when it goes away', async () => {
    const { root, socket } = await open();
    act(() => root.unmount());
    expect(socket.closedWith).toBe(1000);
  });
});
