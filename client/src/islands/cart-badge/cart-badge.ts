// The cart badge island (spec 000 §2, §4): the item count beside a link to the cart, '100+'
// above 100 and spoken 'More than 100 items in cart', hidden while the cart is empty. It
// reads the cart once (the first sync, after which the badge is initialised) and then
// follows every `veranda:cart-changed` event. The cart block's badge variant also shows
// the subtotal.
import { badgeText, loadCart, onCartChanged, type ShoppingCart } from '../../commerce/cart';
import { formatMinor } from '../../commerce/money';
import '../../commerce/commerce.css';

/** Set on the badge once the first sync has answered. */
export const INITIALISED_ATTRIBUTE = 'data-cart-initialised';

/** What to show besides the count. */
export interface BadgeOptions {
  /** Show the subtotal too. */
  subtotal?: boolean;
}

/** Shows `cart` in the badge parts. */
function show(count: HTMLElement, spoken: HTMLElement, subtotal: HTMLElement | null, cart: ShoppingCart): void {
  const text = badgeText(cart.totalQuantity);
  count.textContent = text.text;
  spoken.textContent = text.spoken;
  count.hidden = cart.totalQuantity === 0;
  if (subtotal) {
    subtotal.textContent = formatMinor(cart.subtotalCents, cart.subtotalAmount.currencyCode);
    subtotal.hidden = cart.totalQuantity === 0;
  }
}

/** Adds the count (and subtotal) to `el`, the badge's link, and keeps them current. */
export function mountBadge(el: HTMLElement, options: BadgeOptions = {}): () => void {
  const count = document.createElement('span');
  count.className = 'cart-badge__count';
  count.setAttribute('aria-hidden', 'true');
  count.hidden = true;
  const spoken = document.createElement('span');
  spoken.className = 'visually-hidden';
  let subtotal: HTMLElement | null = null;
  el.append(' ', count, spoken);
  if (options.subtotal) {
    subtotal = document.createElement('span');
    subtotal.className = 'cart-badge__subtotal';
    subtotal.hidden = true;
    el.append(' ', subtotal);
  }
  let changed = false;
  const stop = onCartChanged((cart) => {
    changed = true;
    show(count, spoken, subtotal, cart);
    el.setAttribute(INITIALISED_ATTRIBUTE, '');
  });
  loadCart()
    .then((cart) => {
      // A change that answered first is newer than this read.
      if (!changed) show(count, spoken, subtotal, cart);
      el.setAttribute(INITIALISED_ATTRIBUTE, '');
    })
    .catch((error: unknown) => console.warn('Veranda: the cart badge could not read the cart.', error));
  return stop;
}

/** Mounts the header's badge on `el`, its link to the cart. */
export function mount(el: HTMLElement): void {
  mountBadge(el);
}
