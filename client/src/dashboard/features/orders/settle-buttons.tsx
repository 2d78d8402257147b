// The payment cell of an order row: where its payment stands and, while it is unpaid, until
// when it holds its stock and the owner's two buttons. "Mark paid" sells the held stock;
// "Cancel" returns it to sale, once the owner confirms it in a confirmation popup (spec 001
// §2: Escape or a click outside keeps the order, focus returns to the button). While one is
// being sent both are disabled and the one pressed
// says what it does; the answer replaces the order in the list and focus moves to its new
// status (the buttons are gone). A refusal is shown beside the buttons, which stay usable.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { confirmPopup } from '../../../widgets/popups/popups';
import { RelativeTime } from '../../components/relative-time';
import { ORDERS_KEY, replaceOrder, settleOrder, type OrderStatus, type OrderSummary, type Settlement } from './orders';

/** What each status is called in the panel. */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  unpaid: 'Unpaid',
  paid: 'Paid',
  cancelled: 'Cancelled',
  expired: 'Hold expired',
};

/** The buttons' words: at rest and while being sent. */
const ACTIONS: Record<Settlement, { label: string; busy: string }> = {
  paid: { label: 'Mark paid', busy: 'Marking paid…' },
  cancelled: { label: 'Cancel', busy: 'Cancelling…' },
};

/** The confirmation popup's words for cancelling the order `short`. */
export const CANCEL_CONFIRMATION = {
  title: 'Cancel this order?',
  message: (short: string) => `Order ${short} will be cancelled and its held stock returned to sale.`,
  confirmText: 'Cancel order',
  cancelText: 'Keep order',
};

/** Asks the owner to confirm cancelling the order `short`; resolves true on Confirm. */
async function confirmCancel(short: string): Promise<boolean> {
  const popup = confirmPopup(document, { ...CANCEL_CONFIRMATION, message: CANCEL_CONFIRMATION.message(short) });
  return (await popup.result) === 'confirm';
}

/** The payment cell of `order` (see the module docs). */
export function PaymentCell({ order }: { order: OrderSummary }) {
  const queryClient = useQueryClient();
  const statusRef = useRef<HTMLSpanElement>(null);
  const settle = useMutation({
    mutationFn: (to: Settlement) => settleOrder(order.id, to),
    onSuccess(settled) {
      queryClient.setQueryData<OrderSummary[]>(ORDERS_KEY, (prev) => replaceOrder(prev, settled));
      void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
      requestAnimationFrame(() => statusRef.current?.focus());
    },
  });
  const short = order.id.slice(0, 8);
  const unpaid = order.status === 'unpaid';
  return (
    <td className="order-payment">
      <span ref={statusRef} tabIndex={-1} className="order-status" data-status={order.status}>
        {STATUS_LABELS[order.status] ?? order.status}
      </span>
      {unpaid && order.holdUntil !== null && (
        <small className="order-hold">
          {' · hold ends '}
          <RelativeTime at={order.holdUntil} />
        </small>
      )}
      {unpaid && (
        <span className="order-actions">
          {(['paid', 'cancelled'] as const).map((to) => {
            const sending = settle.isPending && settle.variables === to;
            return (
              <button
                key={to}
                type="button"
                disabled={settle.isPending}
                aria-busy={sending || undefined}
                aria-label={sending ? undefined : `${ACTIONS[to].label} order ${short}`}
                onClick={() => {
                  if (to === 'paid') settle.mutate(to);
                  else void confirmCancel(short).then((yes) => yes && settle.mutate(to));
                }}
              >
                {sending ? ACTIONS[to].busy : ACTIONS[to].label}
              </button>
            );
          })}
        </span>
      )}
      {settle.isError && (
        <span role="alert" className="order-error">
          {settle.error.message}
        </span>
      )}
    </td>
  );
}
