// Orders: the newest orders in a table (when, who, how many items, the total in the
// store's money format, what kind). A placed order arrives on the edits stream and shows at
// once; the list is then read again (for the customer's email). While the stream is down
// the list is read every 15 s, while it is live every 2 min; never while the tab is hidden.
// An unpaid order shows until when it holds its stock, and two buttons: "Mark paid" (the
// held stock is sold) and "Cancel" (the stock returns); see `settle-buttons.tsx`.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatMinor } from '../../../commerce/money';
import { LoadError } from '../../components/load-error';
import { RelativeTime } from '../../components/relative-time';
import { useLiveStream, type LiveStreamTransport } from '../../streams/use-live-stream';
import { PaymentCell } from './settle-buttons';
import {
  addOrder,
  fetchOrders,
  ORDERS_KEY,
  ORDERS_LIMIT,
  ORDERS_LIVE_REFRESH_MS,
  ORDERS_REFRESH_MS,
  toPlacedOrder,
  type OrderKind,
  type OrderSummary,
} from './orders';

const KIND_LABELS: Record<OrderKind, string> = { order: 'Order', subscription: 'Subscription', contribution: 'Donation' };

/** The total of `order` as the store writes money ("$40.84"). */
export function orderTotal(order: OrderSummary): string {
  return formatMinor(order.grandTotalCents, order.grandTotal.currencyCode);
}

function OrderRow({ order }: { order: OrderSummary }) {
  return (
    <tr data-order-id={order.id}>
      <th scope="row">
        <code title={order.id}>{order.id.slice(0, 8)}</code>
      </th>
      <td>
        <RelativeTime at={order.created} />
      </td>
      <td>{order.customerEmail || '—'}</td>
      <td className="num">{order.itemCount.toLocaleString('en')}</td>
      <td className="num">{orderTotal(order)}</td>
      <td>{KIND_LABELS[order.kind] ?? order.kind}</td>
      <PaymentCell order={order} />
    </tr>
  );
}

/** The orders panel; `transport` replaces the websocket in tests. */
export function OrdersPanel({ transport }: { transport?: LiveStreamTransport }) {
  const queryClient = useQueryClient();
  const { status } = useLiveStream(
    'edits',
    {
      onEvent(frame) {
        const order = toPlacedOrder(frame);
        if (!order) return;
        queryClient.setQueryData<OrderSummary[]>(ORDERS_KEY, (prev) => addOrder(prev, order));
        void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
      },
      onReset() {
        void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
      },
    },
    transport,
  );
  const live = status === 'live';
  const every = live ? ORDERS_LIVE_REFRESH_MS : ORDERS_REFRESH_MS;
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: ORDERS_KEY,
    queryFn: ({ signal }) => fetchOrders(signal),
    refetchInterval: every,
    refetchIntervalInBackground: false,
  });
  return (
    <section aria-labelledby="orders-heading" className="panel">
      <div className="panel__head">
        <h2 id="orders-heading">Orders</h2>
        <button type="button" onClick={() => void refetch()} aria-describedby="orders-status">
          Refresh orders
        </button>
        <p id="orders-status" className="panel__status" data-status={status}>
          {isFetching ? 'Reading…' : live ? 'Live' : `Read again every ${ORDERS_REFRESH_MS / 1000} s`}
        </p>
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {!data ? (
        !error && <p className="panel__empty">Loading the orders…</p>
      ) : data.length === 0 ? (
        <p className="panel__empty">No orders yet.</p>
      ) : (
        <div className="table-scroll" role="region" aria-labelledby="orders-caption" tabIndex={0}>
          <table className="orders">
            <caption id="orders-caption">The newest orders, newest first (at most {ORDERS_LIMIT})</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Customer</th>
                <th scope="col" className="num">
                  Items
                </th>
                <th scope="col" className="num">
                  Total
                </th>
                <th scope="col">Kind</th>
                <th scope="col">Payment</th>
              </tr>
            </thead>
            <tbody>
              {data.map((order) => (
                <OrderRow key={order.id} order={order} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
