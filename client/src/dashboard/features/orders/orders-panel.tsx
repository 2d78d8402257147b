// Orders: the newest orders in a table (when, who, how many items, the total in the
// store's money format, what kind), read again every 15 s while the tab is visible.
import { useQuery } from '@tanstack/react-query';
import { formatMinor } from '../../../commerce/money';
import { RelativeTime } from '../../components/relative-time';
import { fetchOrders, ORDERS_KEY, ORDERS_LIMIT, ORDERS_REFRESH_MS, type OrderKind, type OrderSummary } from './orders';

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
    </tr>
  );
}

/** The orders panel. */
export function OrdersPanel() {
  const { data, error, isFetching, refetch } = useQuery({
    queryKey: ORDERS_KEY,
    queryFn: ({ signal }) => fetchOrders(signal),
    refetchInterval: ORDERS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  return (
    <section aria-labelledby="orders-heading" className="panel">
      <div className="panel__head">
        <h2 id="orders-heading">Orders</h2>
        <button type="button" onClick={() => void refetch()} aria-describedby="orders-status">
          Refresh orders
        </button>
        <p id="orders-status" className="panel__status">
          {isFetching ? 'Reading…' : `Read again every ${ORDERS_REFRESH_MS / 1000} s`}
        </p>
      </div>
      {error && <p className="panel__note">The orders could not be read: {error.message}</p>}
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
