// The newest orders, as `GET /api/commerce/orders` gives them. Placing an order emits no
// stream event, so the panel reads the list again on an interval while the tab is visible.
import { getJson } from '../../api/http';

/** The route of the order list. */
export const ORDERS_PATH = '/api/commerce/orders';

/** How many orders the panel shows (the route allows 1 to 200). */
export const ORDERS_LIMIT = 20;

/** The query key of the order list. */
export const ORDERS_KEY = ['commerce', 'orders'] as const;

/** How often the list is read again while the tab is visible. */
export const ORDERS_REFRESH_MS = 15_000;

/** Order, subscription or contribution. */
export type OrderKind = 'order' | 'subscription' | 'contribution';

/** One order as the route gives it. */
export interface OrderSummary {
  /** Order id. */
  id: string;
  /** When it was placed (unix ms). */
  created: number;
  /** The buyer's email. */
  customerEmail: string;
  /** How many items were bought. */
  itemCount: number;
  /** What was charged, as a money object (its currency is used for formatting). */
  grandTotal: { currencyCode: string; value: number };
  /** What was charged, in minor units (exact). */
  grandTotalCents: number;
  /** What was bought. */
  kind: OrderKind;
}

/** Reads the newest orders, newest first. */
export async function fetchOrders(signal?: AbortSignal): Promise<OrderSummary[]> {
  const path = `${ORDERS_PATH}?${new URLSearchParams({ limit: String(ORDERS_LIMIT) })}`;
  return (await getJson<{ orders: OrderSummary[] }>(path, signal)).orders;
}
