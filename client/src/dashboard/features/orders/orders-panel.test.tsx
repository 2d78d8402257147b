import { focusManager } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeTransport, socketOf, type FakeSocket } from '../../test/fake-socket';
import { jsonFetch, renderWithClient, settle, settleUntil } from '../../test/render';
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
    ]);
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-order-id'))).toEqual(['aaaaaaaa1111', 'bbbbbbbb2222', 'cccccccc3333']);
    const cells = (row: Element) => [...row.children].map((c) => c.textContent);
    expect(cells(rows[0]!)).toEqual(['aaaaaaaa', '2 minutes ago', 'aaaaaaaa1111@example.com', '3', '$1,234,567.89', 'Order']);
    expect(cells(rows[1]!).slice(4)).toEqual(['€40.00', 'Donation']);
    expect(cells(rows[2]!).slice(4)).toEqual(['¥1,500', 'Subscription']);
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

  it('shows the server’s message when the orders are refused', async () => {
    vi.stubGlobal('fetch', async () =>
      new Response(JSON.stringify({ error: 'Only the owner and admins see the orders.' }), {
        status: 403,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    const { container } = panel();
    await settle();
    expect(container.querySelector('table')).toBeNull();
    expect(container.textContent).toContain('The orders could not be read: Only the owner and admins see the orders.');
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
