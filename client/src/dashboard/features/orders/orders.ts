// The newest orders, as `GET /api/commerce/orders` gives them. A placed order is also
// published on the edits stream (`orderPlaced`, without customer data): the panel shows it
// at once and reads the list again for the rest. Orders placed some other way (donations,
// gift cards) and a socket that is down are covered by reading the list on an interval.
import { dataRequest } from '../../../data/index';
import type { OrderKind, OrderStatus, OrderSummary } from '../../../generated/types';
import { getJson } from '../../api/http';
import type { EventFrame } from '../../streams/frames';

/** The route of the order list. */
export const ORDERS_PATH = '/api/commerce/orders';

/** How many orders the panel shows (the route allows 1 to 200). */
export const ORDERS_LIMIT = 20;

/** The query key of the order list. */
export const ORDERS_KEY = ['commerce', 'orders'] as const;

/** How often the list is read again while the tab is visible and the stream is down. */
export const ORDERS_REFRESH_MS = 15_000;

/** How often the list is read again while the stream is live (a safety net for orders the stream does not announce). */
export const ORDERS_LIVE_REFRESH_MS = 120_000;

/** Reads the newest orders, newest first. */
export async function fetchOrders(signal?: AbortSignal): Promise<OrderSummary[]> {
  const path = `${ORDERS_PATH}?${new URLSearchParams({ limit: String(ORDERS_LIMIT) })}`;
  return (await getJson<{ orders: OrderSummary[] }>(path, signal)).orders;
}

/** The order of an `orderPlaced` event of the edits stream; `null` for any other event. It has no customer data. */
export function toPlacedOrder(frame: EventFrame): OrderSummary | null {
  const data = frame.data;
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.type !== 'orderPlaced' || typeof d.orderId !== 'string' || !d.orderId) return null;
  const total = d.grandTotal as Record<string, unknown> | null | undefined;
  if (typeof d.grandTotalCents !== 'number' || typeof total?.currencyCode !== 'string' || typeof total.value !== 'number') return null;
  const kind: OrderKind = d.kind === 'subscription' || d.kind === 'contribution' ? d.kind : 'order';
  const status: OrderStatus = d.status === 'paid' || d.status === 'cancelled' || d.status === 'expired' ? d.status : 'unpaid';
  return {
    id: d.orderId,
    created: typeof d.created === 'number' ? d.created : frame.at,
    customerEmail: '',
    itemCount: typeof d.itemCount === 'number' ? d.itemCount : 0,
    grandTotal: { currencyCode: total.currencyCode, value: total.value },
    grandTotalCents: d.grandTotalCents,
    kind,
    status,
    holdUntil: typeof d.holdUntil === 'number' ? d.holdUntil : null,
  };
}

/** `orders` with `order` in its place (newest first, by id on ties), never twice, at most `ORDERS_LIMIT`. */
export function addOrder(orders: readonly OrderSummary[] | undefined, order: OrderSummary): OrderSummary[] {
  const kept = (orders ?? []).filter((o) => o.id !== order.id);
  const merged = [...kept, order].sort((a, b) => b.created - a.created || a.id.localeCompare(b.id));
  return merged.slice(0, ORDERS_LIMIT);
}

/** How the owner settles an unpaid order: paid (its held stock is sold) or cancelled (the stock returns). */
export type Settlement = 'paid' | 'cancelled';

/** The route that settles order `id`. */
export function settlePath(id: string): string {
  return `${ORDERS_PATH}/${encodeURIComponent(id)}/status`;
}

/** Marks unpaid order `id` paid or cancelled (crumb-checked); resolves with the settled order. */
export async function settleOrder(id: string, status: Settlement): Promise<OrderSummary> {
  const body = await dataRequest<{ order: OrderSummary }>({ url: settlePath(id), method: 'POST', data: { status }, asJson: true });
  return body.order;
}

/** `orders` with `order` in place of the order of the same id. */
export function replaceOrder(orders: readonly OrderSummary[] | undefined, order: OrderSummary): OrderSummary[] | undefined {
  return orders?.map((o) => (o.id === order.id ? order : o));
}

export type { OrderKind, OrderStatus, OrderSummary };
