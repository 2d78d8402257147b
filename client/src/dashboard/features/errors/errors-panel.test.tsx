import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTransport, socketOf, type FakeSocket } from '../../test/fake-socket';
import { charts } from '../../test/fake-uplot';
import { jsonFetch, loadError, renderWithClient, settle, settleUntil } from '../../test/render';
import { ErrorsPanel } from './errors-panel';
import { ERROR_HOURS_PATH, type ErrorGroup } from './errors';

vi.mock('uplot', async () => ({ default: (await import('../../test/fake-uplot')).FakeUPlot }));

afterEach(() => {
  document.body.innerHTML = '';
  charts.length = 0;
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

// 2026-11-26 00:00 UTC.
const MIDNIGHT = Date.UTC(2026, 10, 26);
const porchHours = Array.from({ length: 24 }, (_, i) => (i === 23 ? 3 : i === 20 ? 1 : 0));
const hours = {
  bucketMs: 3_600_000,
  points: porchHours.map((errors, i) => ({ start: MIDNIGHT - (23 - i) * 3_600_000, errors })),
  groups: [{ fingerprint: 'fp-porch', counts: porchHours }],
};

function panel(asked: string[] = [], errorHours: object | null = null) {
  const answers: Record<string, unknown> = {
    '/api/events/errors': { groups: [porch], records: [{ fingerprint: 'fp-porch', stack: 'Error: porch light flickered\n    at loader.js:3:17' }] },
  };
  if (errorHours) answers['/api/stats/errors'] = errorHours;
  vi.stubGlobal('fetch', jsonFetch(answers, asked));
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
    const lists = () => asked.filter((path) => path === '/api/events/errors');
    expect(lists()).toEqual(['/api/events/errors']);
    act(() => socketOf(sockets, 'errors').send({ type: 'reset', stream: 'errors', epoch: 'y', offset: 0, reason: 'beyond-history' }));
    await settle();
    expect(lists()).toEqual(['/api/events/errors', '/api/events/errors']);
  });

  it('charts all errors per hour and gives each group its 24-hour sparkline, both named in text', async () => {
    const asked: string[] = [];
    const { container } = panel(asked, hours);
    await settleUntil(() => charts.length === 2);
    expect(asked).toContain('/api/stats/errors');
    const chart = container.querySelector('figure [role="img"]');
    expect(chart?.getAttribute('aria-label')).toBe('Last 24 hours: 4 errors; busiest hour 00:00 UTC with 3.');
    const rows = [...container.querySelectorAll('figure tbody tr')];
    expect(rows).toHaveLength(24);
    expect([...rows[23]!.children].map((c) => c.textContent)).toEqual(['2026-11-26 00:00', '3']);
    const item = container.querySelector('[data-fingerprint="fp-porch"]')!;
    const sparkline = item.querySelector('.sparkline')!;
    expect(sparkline.getAttribute('role')).toBe('img');
    expect(sparkline.getAttribute('aria-label')).toBe('4 in the last 24 hours, at most 3 in one hour');
    const drawn = charts.find((c) => c.target === sparkline)!;
    expect(drawn.data[1]).toEqual(porchHours);
    expect(drawn.options.axes?.every((a) => a.show === false)).toBe(true);
  });

  it('says Unable to load. Try again. when the list is refused, and reads both lists again on Try again', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({}, asked));
    const { container } = renderWithClient(<ErrorsPanel transport={fakeTransport([])} />);
    await settle();
    const retry = loadError(container, 'Not here.');
    expect(asked.sort()).toEqual(['/api/events/errors', ERROR_HOURS_PATH].sort());
    asked.length = 0;
    act(() => retry.click());
    await settle();
    expect(asked.sort()).toEqual(['/api/events/errors', ERROR_HOURS_PATH].sort());
  });

  it('says Unable to load. Try again. when only the errors per hour cannot be read', async () => {
    vi.stubGlobal('fetch', jsonFetch({ '/api/events/errors': { groups: [], records: [] } }));
    const { container } = renderWithClient(<ErrorsPanel transport={fakeTransport([])} />);
    await settle();
    loadError(container, 'Not here.');
    expect(container.textContent).toContain('No errors recorded.');
  });
});
