import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTransport, socketOf, type FakeSocket } from '../../test/fake-socket';
import { jsonFetch, renderWithClient, settle } from '../../test/render';
import { ErrorsPanel } from './errors-panel';
import type { ErrorGroup } from './errors';

afterEach(() => {
  document.body.innerHTML = '';
});

const now = Date.now();
const porch: ErrorGroup = {
  fingerprint: 'fp-porch',
  message: 'porch light flickered',
  file: 'http://127.0.0.1/assets/loader.js',
  line: 3,
  column: 17,
  lastUrl: 'http://127.0.0.1/',
  firstSeen: now - 3_600_000,
  lastSeen: now - 20_000,
  count: 1,
};

function panel(asked: string[] = []) {
  vi.stubGlobal(
    'fetch',
    jsonFetch(
      { '/api/events/errors': { groups: [porch], records: [{ fingerprint: 'fp-porch', stack: 'Error: porch light flickered\n    at loader.js:3:17' }] } },
      asked,
    ),
  );
  const sockets: FakeSocket[] = [];
  const rendered = renderWithClient(<ErrorsPanel transport={fakeTransport(sockets)} />);
  return { ...rendered, sockets };
}

describe('the errors panel', () => {
  it('shows each group with its location, count, first and last seen, and its stack in a disclosure', async () => {
    const { container } = panel();
    await settle();
    const item = container.querySelector('[data-fingerprint="fp-porch"]')!;
    expect(item.querySelector('.feed__title')?.textContent).toBe('porch light flickered');
    expect(item.textContent).toContain('http://127.0.0.1/assets/loader.js:3:17');
    expect(item.querySelector('[data-count]')?.textContent).toBe('1');
    // Spec 001 §4: a formatted date past a minute, 'about {n} seconds ago' under it.
    const times = [...item.querySelectorAll('time')].map((t) => t.textContent);
    expect(times).toEqual([expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/), 'about 20 seconds ago']);
    const details = item.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Stack');
    expect(details.querySelector('pre')?.textContent).toContain('at loader.js:3:17');
  });

  it('updates a group’s count and adds new groups first as the stream reports them', async () => {
    const { container, sockets } = panel();
    await settle();
    const socket = socketOf(sockets, 'errors');
    act(() => {
      socket.send({ type: 'hello', stream: 'errors', epoch: 'x', offset: 1 });
      socket.send({ type: 'event', stream: 'errors', epoch: 'x', offset: 2, at: now, data: { type: 'errorGrouped', ...porch, count: 2, lastSeen: now } });
      socket.send({
        type: 'event',
        stream: 'errors',
        epoch: 'x',
        offset: 3,
        at: now,
        data: { type: 'errorGrouped', ...porch, fingerprint: 'fp-swing', message: 'swing creaked', count: 1, firstSeen: now + 1, lastSeen: now + 1 },
      });
    });
    const items = [...container.querySelectorAll('li')];
    expect(items.map((li) => li.getAttribute('data-fingerprint'))).toEqual(['fp-swing', 'fp-porch']);
    expect(items[1]!.querySelector('[data-count]')?.textContent).toBe('2');
  });

  it('reads the list again when the server resets the stream', async () => {
    const asked: string[] = [];
    const { sockets } = panel(asked);
    await settle();
    expect(asked).toEqual(['/api/events/errors']);
    act(() => socketOf(sockets, 'errors').send({ type: 'reset', stream: 'errors', epoch: 'y', offset: 0, reason: 'beyond-history' }));
    await settle();
    expect(asked).toEqual(['/api/events/errors', '/api/events/errors']);
  });

  it('says why when the list is refused', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    const { container } = renderWithClient(<ErrorsPanel transport={fakeTransport([])} />);
    await settle();
    expect(container.textContent).toContain('The errors could not be read: Not here.');
  });
});
