import { focusManager } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeTransport, socketOf, type FakeSocket } from '../../test/fake-socket';
import { flakyFetch, jsonFetch, loadError, loadErrors, renderWithClient, retryOnceOnline, settle, settleUntil } from '../../test/render';
import { ORDERS_LIVE_REFRESH_MS, ORDERS_REFRESH_MS, type OrderSummary } from './orders';
import { OrdersPanel } from './orders-panel';

/** The panel with a hand-driven edits socket. */
function panel(sockets: FakeSocket[] = []) {
  return renderWithClient(<OrdersPanel transport={fakeTransport(sockets)} />);
}

const PATH = '/api/commerce/orders?limit=20';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function order(id: string, created: number, cents: number, currencyCode = 'USD', kind: OrderSummary['kind'] = 'order'): OrderSummary {
  return {
    id,
    created,
    customerEmail: `${id}@example.com`,
    itemCount: 3,
    grandTotal: { currencyCode, value: cents / 100 },
    grandTotalCents: cents,
    kind,
    status: 'paid',
    holdUntil: null,
  };
}

describe('the orders panel', () => {
  it('shows the orders in a captioned table with money in the store format', async () => {
    const now = Date.now();
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [PATH]: {
          orders: [
            order('aaaaaaaa1111', now - 120_000, 123456789),
            order('bbbbbbbb2222', now - 600_000, 4000, 'EUR', 'contribution'),
            order('cccccccc3333', now - 900_000, 1500, 'JPY', 'subscription'),
          ],
        },
      }),
    );
    const { container } = panel();
    await settle();
    const table = container.querySelector('table')!;
    expect(table.querySelector('caption')?.textContent).toBe('The newest orders, newest first (at most 20)');
    expect([...table.querySelectorAll('thead th')].map((th) => [th.textContent, th.getAttribute('scope')])).toEqual([
      ['Order', 'col'],
      ['Placed', 'col'],
      ['Customer', 'col'],
      ['Items', 'col'],
      ['Total', 'col'],
      ['Kind', 'col'],
      ['Payment', 'col'],
    ]);
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-order-id'))).toEqual(['aaaaaaaa1111', 'bbbbbbbb2222', 'cccccccc3333']);
    const cells = (row: Element) => [...row.children].map((c) => c.textContent);
    // Two minutes ago is past the spec's minute of relative wording: a formatted date.
    expect(cells(rows[0]!)).toEqual(['aaaaaaaa', expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/), 'aaaaaaaa1111@example.com', '3', '$1,234,567.89', 'Order', 'Paid']);
    expect(cells(rows[1]!).slice(4)).toEqual(['€40.00', 'Donation', 'Paid']);
    expect(cells(rows[2]!).slice(4)).toEqual(['¥1,500', 'Subscription', 'Paid']);
    expect(rows[0]!.querySelector('th')?.getAttribute('scope')).toBe('row');
    const region = container.querySelector('[role="region"]')!;
    expect(region.getAttribute('tabindex')).toBe('0');
    expect(region.getAttribute('aria-labelledby')).toBe(table.querySelector('caption')!.id);
  });

  it('says so when there are no orders', async () => {
    vi.stubGlobal('fetch', jsonFetch({ [PATH]: { orders: [] } }));
    const { container } = panel();
    expect(container.textContent).toContain('Loading the orders…');
    await settle();
    expect(container.querySelector('table')).toBeNull();
    expect(container.textContent).toContain('No orders yet.');
  });

  it('says Unable to load. Try again. with the server’s message when the orders are refused', async () => {
    vi.stubGlobal('fetch', async () =>
      new Response(JSON.stringify({ error: 'Only the owner and admins see the orders.' }), {
        status: 403,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    const { container } = panel();
    await settle();
    expect(container.querySelector('table')).toBeNull();
    loadError(container, 'Only the owner and admins see the orders.');
  });

  it('says Network error when the orders cannot be asked for, and reads them again on Try again', async () => {
    const net = flakyFetch({ [PATH]: { orders: [order('aaaaaaaa1111', Date.now(), 500)] } });
    vi.stubGlobal('fetch', net.fetch);
    const { container } = panel();
    await retryOnceOnline(container, net);
    await settleUntil(() => container.querySelector('tbody tr') !== null);
    expect(loadErrors(container)).toEqual([]);
  });

  it('reads the list again on its interval and on the refresh button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const now = Date.now();
    let answer: { orders: OrderSummary[] } = { orders: [] };
    const asked: string[] = [];
    vi.stubGlobal('fetch', ((input: RequestInfo | URL) => jsonFetch({ [PATH]: answer }, asked)(input)) as typeof fetch);
    const { container } = panel();
    await settleUntil(() => container.textContent!.includes('No orders yet.'));
    answer = { orders: [order('dddddddd4444', now, 999)] };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ORDERS_REFRESH_MS);
    });
    await settleUntil(() => container.querySelector('tbody tr') !== null);
    expect(container.querySelector('tbody tr')?.getAttribute('data-order-id')).toBe('dddddddd4444');
    const before = asked.length;
    const button = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Refresh orders')!;
    await act(async () => button.click());
    await settleUntil(() => asked.length > before);
    expect(asked.length).toBe(before + 1);
  });

  it('does not poll while the tab is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({ [PATH]: { orders: [] } }, asked));
    const { container } = panel();
    await settleUntil(() => container.textContent!.includes('No orders yet.'));
    const before = asked.length;
    focusManager.setFocused(false);
    try {
      await act(async () => {
        await vi.advanceTimersByTimeAsync(ORDERS_REFRESH_MS * 3);
      });
      expect(asked.length).toBe(before);
    } finally {
      focusManager.setFocused(undefined);
    }
  });

  it('shows an order placed through the stream at once, then reads the list again', async () => {
    const now = Date.now();
    let answer: { orders: OrderSummary[] } = { orders: [order('older0000000', now - 600_000, 500)] };
    const asked: string[] = [];
    vi.stubGlobal('fetch', ((input: RequestInfo | URL) => jsonFetch({ [PATH]: answer }, asked)(input)) as typeof fetch);
    const sockets: FakeSocket[] = [];
    const { container } = panel(sockets);
    await settleUntil(() => container.querySelector('tbody tr') !== null && sockets.length > 0);
    const socket = socketOf(sockets, 'edits');
    act(() => socket.send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 7 }));
    expect(container.querySelector('#orders-status')?.textContent).toBe('Live');
    const before = asked.length;

    // An editor event is not an order: nothing is read.
    act(() =>
      socket.send({ type: 'event', stream: 'edits', epoch: 'e1', offset: 8, at: now, data: { name: 'UserSavesLanguages', actor: 'a' } }),
    );
    await settle();
    expect(asked.length).toBe(before);

    answer = { orders: [order('placed000001', now, 4084), ...answer.orders] };
    act(() =>
      socket.send({
        type: 'event',
        stream: 'edits',
        epoch: 'e1',
        offset: 9,
        at: now,
        data: {
          type: 'orderPlaced',
          orderId: 'placed000001',
          created: now,
          itemCount: 2,
          grandTotal: { currencyCode: 'USD', value: 40.84 },
          grandTotalCents: 4084,
          kind: 'order',
        },
      }),
    );
    const rows = () => [...container.querySelectorAll('tbody tr')];
    expect(rows().map((r) => r.getAttribute('data-order-id'))).toEqual(['placed000001', 'older0000000']);
    const cells = [...rows()[0]!.children].map((c) => c.textContent);
    expect(cells.slice(3, 5)).toEqual(['2', '$40.84']);
    await settleUntil(() => rows()[0]!.textContent!.includes('placed000001@example.com'));
    expect(asked.length).toBe(before + 1);
    expect(rows()).toHaveLength(2);
  });

  it('polls slowly while the stream is live and every 15 s once it is down', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({ [PATH]: { orders: [] } }, asked));
    const sockets: FakeSocket[] = [];
    const { container } = panel(sockets);
    await settleUntil(() => container.textContent!.includes('No orders yet.') && sockets.length > 0);
    act(() => socketOf(sockets, 'edits').send({ type: 'hello', stream: 'edits', epoch: 'e1', offset: 0 }));
    const live = asked.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ORDERS_REFRESH_MS * 2);
    });
    expect(asked.length).toBe(live);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ORDERS_LIVE_REFRESH_MS);
    });
    expect(asked.length).toBeGreaterThan(live);

    act(() => socketOf(sockets, 'edits').drop());
    expect(container.querySelector('#orders-status')?.textContent).toBe('Read again every 15 s');
    const down = asked.length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ORDERS_REFRESH_MS + 100);
    });
    expect(asked.length).toBeGreaterThan(down);
  });
});

/** An unpaid order holding its stock for two more days. */
function unpaid(id: string, now: number): OrderSummary {
  return { ...order(id, now - 60_000, 1600), status: 'unpaid', holdUntil: now + 2 * 24 * 3600 * 1000 };
}

/** A fetch answering the list with `list()` and each settlement with `settled`, recording what was posted. */
function settlingFetch(list: () => OrderSummary[], settled: (id: string, body: { status: string }) => Response, posted: string[][]) {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const match = /^\/api\/commerce\/orders\/([^/]+)\/status$/.exec(url.pathname);
    if (match && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { status: string };
      posted.push([decodeURIComponent(match[1]!), body.status, new Headers(init.headers).get('Content-Type') ?? '']);
      return settled(decodeURIComponent(match[1]!), body);
    }
    return jsonFetch({ [PATH]: { orders: list() } })(input);
  }) as typeof fetch;
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('settling an unpaid order', () => {
  const buttons = (row: Element) => [...row.querySelectorAll('button')];
  beforeEach(() => {
    // jsdom lacks modal dialogs: open and close them as the browser does.
    HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
      this.removeAttribute('open');
    };
  });

  it('shows the hold and the two buttons only on unpaid orders, each button named for its order', async () => {
    const now = Date.now();
    const orders = [unpaid('unpaid000001', now), order('paid00000002', now - 120_000, 900)];
    vi.stubGlobal('fetch', jsonFetch({ [PATH]: { orders } }));
    const { container } = panel();
    await settleUntil(() => container.querySelectorAll('tbody tr').length === 2);
    const [held, paid] = [...container.querySelectorAll('tbody tr')];
    // An instant still to come reads as its date (spec 001 §4 has no future wording).
    expect(held!.lastElementChild!.textContent).toMatch(/^Unpaid · hold ends [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]MMark paidCancel$/);
    expect(buttons(held!).map((b) => [b.textContent, b.getAttribute('aria-label'), b.type, b.disabled])).toEqual([
      ['Mark paid', 'Mark paid order unpaid00', 'button', false],
      ['Cancel', 'Cancel order unpaid00', 'button', false],
    ]);
    expect(paid!.lastElementChild!.textContent).toBe('Paid');
    expect(buttons(paid!)).toHaveLength(0);
  });

  it('marks an order paid: busy while sent, then its new status takes focus and the buttons go', async () => {
    const now = Date.now();
    let current = [unpaid('unpaid000001', now)];
    const posted: string[][] = [];
    let answer: (r: Response) => void = () => {};
    // The settlement answers only when the test says so.
    vi.stubGlobal(
      'fetch',
      ((base: typeof fetch) => (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (init?.method !== 'POST') return base(input, init);
        await base(input, init);
        return new Promise<Response>((resolve) => {
          answer = resolve;
        });
      }) as typeof fetch)(settlingFetch(() => current, () => json({}), posted)),
    );
    const { container } = panel();
    await settleUntil(() => container.querySelector('tbody button') !== null);
    const row = container.querySelector('tbody tr')!;
    const [markPaid, cancel] = buttons(row);
    markPaid!.focus();
    expect(document.activeElement).toBe(markPaid);
    await act(async () => markPaid!.click());
    await settleUntil(() => posted.length === 1);
    expect(posted).toEqual([['unpaid000001', 'paid', 'application/json']]);
    expect([markPaid!.textContent, markPaid!.disabled, markPaid!.getAttribute('aria-busy')]).toEqual(['Marking paid…', true, 'true']);
    expect([cancel!.textContent, cancel!.disabled]).toEqual(['Cancel', true]);

    const settled = { ...current[0]!, status: 'paid' as const };
    current = [settled];
    await act(async () => answer(json({ order: settled })));
    await settleUntil(() => container.querySelector('tbody button') === null);
    const status = container.querySelector('tbody tr .order-status')!;
    expect(status.textContent).toBe('Paid');
    await settleUntil(() => document.activeElement === status);
    expect(document.activeElement).toBe(status);
  });

  it('cancels an order from the keyboard and shows a refusal beside the buttons', async () => {
    const now = Date.now();
    const posted: string[][] = [];
    vi.stubGlobal(
      'fetch',
      settlingFetch(
        () => [unpaid('unpaid000001', now)],
        () => json({ error: 'This order’s hold expired and its stock was returned.' }, 409),
        posted,
      ),
    );
    const { container } = panel();
    await settleUntil(() => container.querySelector('tbody button') !== null);
    const cancel = buttons(container.querySelector('tbody tr')!)[1]!;
    // A native button: Enter and Space press it, and it is in the tab order.
    expect(cancel.tabIndex).toBe(0);
    cancel.focus();
    await act(async () => cancel.click());
    // A confirmation popup first (spec 001 §2): nothing is sent until it is confirmed.
    const popup = document.querySelector<HTMLDialogElement>('dialog.popup--confirmation')!;
    expect(popup.open).toBe(true);
    expect(popup.querySelector('h2')!.textContent).toBe('Cancel this order?');
    expect([...popup.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Keep order', 'Cancel order']);
    expect(posted).toEqual([]);
    await act(async () => popup.querySelector<HTMLButtonElement>('.popup__button--confirm')!.click());
    await settleUntil(() => container.querySelector('[role="alert"]') !== null);
    expect(document.querySelector('dialog.popup')).toBeNull();
    expect(posted).toEqual([['unpaid000001', 'cancelled', 'application/json']]);
    expect(container.querySelector('[role="alert"]')!.textContent).toBe('This order’s hold expired and its stock was returned.');
    expect(buttons(container.querySelector('tbody tr')!).map((b) => [b.textContent, b.disabled])).toEqual([
      ['Mark paid', false],
      ['Cancel', false],
    ]);
  });

  it('keeps the order when its cancellation popup is closed with Escape, focus back on Cancel', async () => {
    const now = Date.now();
    const posted: string[][] = [];
    vi.stubGlobal('fetch', settlingFetch(() => [unpaid('unpaid000001', now)], () => json({}), posted));
    const { container } = panel();
    await settleUntil(() => container.querySelector('tbody button') !== null);
    const cancel = buttons(container.querySelector('tbody tr')!)[1]!;
    cancel.focus();
    await act(async () => cancel.click());
    const popup = document.querySelector<HTMLDialogElement>('dialog.popup--confirmation')!;
    // Escape on a modal dialog fires its cancel event.
    await act(async () => popup.dispatchEvent(new Event('cancel', { cancelable: true })));
    await settleUntil(() => document.querySelector('dialog.popup') === null);
    expect(document.activeElement).toBe(cancel);
    expect(posted).toEqual([]);
  });
});
