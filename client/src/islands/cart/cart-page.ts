// The cart block's island (spec 000 §2 "cart page", §3 "Shopping cart"). The full variant
// mounts the full-page cart where the cart root (`#cart-root`) exists: every entry with a
// quantity stepper and a remove button (a subscription's plan terms, as the server words
// them, under its title), coupon codes (the valid ones with what they take
// off, the invalid ones marked), the totals as the server computed them after each change,
// and the checkout link. The badge variant is the item count and subtotal.
//
// Every change goes through the cart API; the view is redrawn from the server's answer
// and keeps the keyboard focus on the same control (or the cart's heading when that
// control is gone). When the cart ships, its shipping options are radio buttons and the
// chosen one is sent to `/api/commerce/cart/shipping-option` (the totals follow). Refusals: 'Unable to update quantity', 'Unable to remove item'
// (spec 000 §8) with the server's reason. Removing an entry asks first, in a confirmation
// popup (001 §2): 'Remove' removes it, 'Keep it', Escape or a click beside it keeps it.
import {
  applyCoupon,
  CHECKOUT_URL,
  changeQuantity,
  loadCart,
  onCartChanged,
  removeCoupon,
  removeEntry,
  selectShipping,
  type ShoppingCart,
} from '../../commerce/cart';
import { mountBadge } from '../cart-badge/cart-badge';
import { formatMinor } from '../../commerce/money';
import { confirmPopup } from '../../widgets/popups/popups';
import '../../commerce/commerce.css';

/** Spec 000 §8. */
export const UNABLE_TO_UPDATE_QUANTITY = 'Unable to update quantity';
/** Spec 000 §8. */
export const UNABLE_TO_REMOVE_ITEM = 'Unable to remove item';
/** A refused shipping choice (the spec has no words for it). */
export const UNABLE_TO_CHOOSE_SHIPPING = 'Unable to choose shipping option';
/** Shown for an empty cart. */
export const EMPTY_CART = 'Your cart is empty.';
/** The confirmation before an entry is removed: its title, and its message for an entry titled `{title}`. */
export const REMOVE_CONFIRMATION = { title: 'Remove item', message: 'Remove {title} from your cart?', confirm: 'Remove', cancel: 'Keep it' };
/** The largest quantity the stepper offers (the cart's entry limit). */
export const MAX_QUANTITY = 1000;
/** Where "Continue shopping" goes. */
export const SHOP_URL = '/shop';

/** Marks a control so focus can come back to its redrawn copy. */
const FOCUS_KEY = 'data-focus-key';

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

function keyed<T extends HTMLElement>(el: T, key: string): T {
  el.setAttribute(FOCUS_KEY, key);
  return el;
}

/** The full-page cart in `root`. */
export class CartView {
  private readonly root: HTMLElement;
  private readonly heading: HTMLHeadingElement;
  private readonly body: HTMLElement;
  private readonly status: HTMLElement;
  private readonly error: HTMLElement;
  private cart: ShoppingCart | null = null;
  private busy = false;

  constructor(root: HTMLElement) {
    this.root = root;
    this.heading = element('h2', 'cart__heading', 'Shopping cart');
    this.heading.tabIndex = -1;
    this.body = element('div', 'cart__body');
    this.status = element('p', 'cart__status visually-hidden');
    this.status.setAttribute('role', 'status');
    this.error = element('p', 'cart__error');
    this.error.setAttribute('role', 'alert');
    root.replaceChildren(this.heading, this.error, this.body, this.status);
    root.setAttribute('aria-busy', 'true');
  }

  /** Reads the cart and keeps the view in step with every change on the page. */
  start(): void {
    onCartChanged((cart) => this.show(cart));
    loadCart()
      .then((cart) => this.show(cart))
      .catch((failure: unknown) => {
        this.error.textContent = failure instanceof Error ? failure.message : String(failure);
      })
      .finally(() => this.root.removeAttribute('aria-busy'));
  }

  /** Redraws from `cart`, keeping focus on the same control. */
  show(cart: ShoppingCart): void {
    this.cart = cart;
    const focused = document.activeElement?.closest(`[${FOCUS_KEY}]`)?.getAttribute(FOCUS_KEY) ?? null;
    const hadFocus = focused !== null && this.body.contains(document.activeElement);
    this.body.replaceChildren(...this.draw(cart));
    if (hadFocus) {
      const again = [...this.body.querySelectorAll<HTMLElement>(`[${FOCUS_KEY}]`)].find(
        (el) => el.getAttribute(FOCUS_KEY) === focused,
      );
      (again && !(again as HTMLButtonElement).disabled ? again : this.heading).focus();
    }
  }

  private money(cents: number): string {
    return formatMinor(cents, this.cart?.subtotalAmount.currencyCode ?? 'USD');
  }

  /** Runs one change; `failure` names what could not be done. */
  private run(task: () => Promise<ShoppingCart>, failure: string, done: string): void {
    if (this.busy) return;
    this.busy = true;
    this.error.textContent = '';
    this.root.setAttribute('aria-busy', 'true');
    task()
      .then(() => {
        this.status.textContent = done;
      })
      .catch((reason: unknown) => {
        const why = reason instanceof Error ? reason.message : '';
        this.error.textContent = why ? `${failure}. ${why}` : failure;
        if (this.cart) this.show(this.cart);
      })
      .finally(() => {
        this.busy = false;
        this.root.removeAttribute('aria-busy');
      });
  }

  private draw(cart: ShoppingCart): Node[] {
    if (cart.entries.length === 0) {
      const shop = element('a', '', 'Continue shopping');
      shop.href = SHOP_URL;
      return [element('p', 'cart__empty', EMPTY_CART), element('p').appendChild(shop).parentNode!];
    }
    const shipping = this.shipping(cart);
    return [this.entries(cart), this.coupons(cart), ...(shipping ? [shipping] : []), this.totals(cart), this.checkout()];
  }

  private entries(cart: ShoppingCart): HTMLElement {
    const table = element('table', 'cart-entries');
    table.append(element('caption', 'visually-hidden', 'Items in your cart'));
    const head = element('thead').appendChild(element('tr'));
    for (const title of ['Item', 'Price', 'Quantity', 'Total']) {
      const th = element('th', '', title);
      th.scope = 'col';
      head.append(th);
    }
    const removeHead = element('th');
    removeHead.scope = 'col';
    removeHead.append(element('span', 'visually-hidden', 'Remove'));
    head.append(removeHead);
    table.append(head.parentElement!);
    const tbody = element('tbody');
    for (const entry of cart.entries) {
      const row = element('tr');
      row.dataset.sku = entry.sku;
      const name = element('th', '', entry.title);
      name.scope = 'row';
      if (entry.options.length) name.append(element('br'), element('small', '', entry.options.join(', ')));
      if (entry.planTerms) name.append(element('p', 'plan-price', entry.planTerms.price), element('p', 'renewal', entry.planTerms.renewal));
      const stepper = element('div', 'cart-stepper');
      const less = keyed(element('button', '', '−'), `less:${entry.sku}`);
      less.type = 'button';
      less.setAttribute('aria-label', `Decrease quantity of ${entry.title}`);
      less.disabled = entry.quantity <= 1;
      const input = keyed(element('input'), `quantity:${entry.sku}`);
      Object.assign(input, { type: 'number', min: '1', max: String(MAX_QUANTITY), value: String(entry.quantity) });
      input.inputMode = 'numeric';
      input.setAttribute('aria-label', `Quantity of ${entry.title}`);
      const more = keyed(element('button', '', '+'), `more:${entry.sku}`);
      more.type = 'button';
      more.setAttribute('aria-label', `Increase quantity of ${entry.title}`);
      more.disabled = entry.quantity >= MAX_QUANTITY;
      stepper.append(less, input, more);
      const setQuantity = (quantity: number) => {
        if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
          this.error.textContent = `${UNABLE_TO_UPDATE_QUANTITY}. Enter a quantity from 1 to ${MAX_QUANTITY}.`;
          input.value = String(entry.quantity);
          return;
        }
        if (quantity === entry.quantity) return;
        this.run(
          () => changeQuantity(entry.sku, quantity),
          UNABLE_TO_UPDATE_QUANTITY,
          `${entry.title}: quantity ${quantity}.`,
        );
      };
      less.addEventListener('click', () => setQuantity(entry.quantity - 1));
      more.addEventListener('click', () => setQuantity(entry.quantity + 1));
      input.addEventListener('change', () => setQuantity(Number(input.value)));
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') setQuantity(Number(input.value));
      });
      const remove = keyed(element('button', 'cart-remove', 'Remove'), `remove:${entry.sku}`);
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove ${entry.title}`);
      remove.addEventListener('click', () => {
        if (this.busy) return;
        const asked = confirmPopup(document, {
          title: REMOVE_CONFIRMATION.title,
          message: REMOVE_CONFIRMATION.message.replace('{title}', entry.title),
          confirmText: REMOVE_CONFIRMATION.confirm,
          cancelText: REMOVE_CONFIRMATION.cancel,
        });
        void asked.result.then((answer) => {
          if (answer === 'confirm') this.run(() => removeEntry(entry.sku), UNABLE_TO_REMOVE_ITEM, `${entry.title} removed from your cart.`);
        });
      });
      const cells = [
        element('td', '', this.money(entry.unitPriceCents)),
        element('td'),
        element('td', '', this.money(entry.totalCents)),
        element('td'),
      ];
      cells[1]!.append(stepper);
      cells[3]!.append(remove);
      row.append(name, ...cells);
      tbody.append(row);
    }
    table.append(tbody);
    return table;
  }

  private coupons(cart: ShoppingCart): HTMLElement {
    const section = element('section', 'cart-coupons');
    section.setAttribute('aria-label', 'Coupons');
    const form = element('form', 'cart-coupon');
    const label = element('label', '', 'Coupon code');
    label.htmlFor = 'cart-coupon-code';
    const input = keyed(element('input'), 'coupon-code');
    Object.assign(input, { id: 'cart-coupon-code', name: 'code', type: 'text', autocomplete: 'off', maxLength: 64 });
    const apply = keyed(element('button', '', 'Apply'), 'coupon-apply');
    apply.type = 'submit';
    form.append(label, ' ', input, ' ', apply);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const code = input.value.trim();
      if (code === '') {
        input.focus();
        return;
      }
      this.run(() => applyCoupon(code), 'Unable to apply coupon', `Coupon ${code} entered.`);
    });
    section.append(form);
    const list = element('ul', 'cart-coupon-list');
    const item = (code: string, text: string, invalid: boolean) => {
      const li = element('li', invalid ? 'cart-coupon--invalid' : 'cart-coupon--valid', text);
      const remove = keyed(element('button', '', 'Remove'), `coupon-remove:${code}`);
      remove.type = 'button';
      remove.setAttribute('aria-label', `Remove coupon ${code}`);
      remove.addEventListener('click', () =>
        this.run(() => removeCoupon(code), 'Unable to remove coupon', `Coupon ${code} removed.`),
      );
      li.append(' ', remove);
      list.append(li);
    };
    for (const c of cart.validCoupons) item(c.code, `${c.code}: −${this.money(c.discountCents)}`, false);
    for (const c of cart.invalidCoupons) item(c.code, `${c.code}: not a valid coupon`, true);
    if (list.childElementCount) section.append(list);
    return section;
  }

  /** The shipping options as radio buttons; choosing one updates the totals. */
  private shipping(cart: ShoppingCart): HTMLElement | null {
    if (!cart.requiresShipping || cart.shippingOptions.length === 0) return null;
    const fieldset = element('fieldset', 'cart-shipping');
    fieldset.append(element('legend', '', 'Shipping'));
    const chosen = cart.selectedShippingOption?.id ?? null;
    cart.shippingOptions.forEach((option, i) => {
      const id = `cart-shipping-${i}`;
      const row = element('p', 'cart-shipping__option');
      const radio = keyed(element('input'), `shipping:${option.id}`);
      Object.assign(radio, { type: 'radio', name: 'cart-shipping', id, value: option.id, checked: option.id === chosen });
      const label = element('label', '', `${option.name}: ${this.money(option.costCents)}`);
      label.htmlFor = id;
      radio.addEventListener('change', () => {
        if (!radio.checked || option.id === chosen) return;
        this.run(() => selectShipping(option.id), UNABLE_TO_CHOOSE_SHIPPING, `Shipping: ${option.name}.`);
      });
      row.append(radio, ' ', label);
      fieldset.append(row);
    });
    return fieldset;
  }

  private totals(cart: ShoppingCart): HTMLElement {
    const dl = element('dl', 'cart-totals');
    const row = (term: string, cents: number, negative = false) =>
      dl.append(element('dt', '', term), element('dd', '', `${negative ? '−' : ''}${this.money(cents)}`));
    row('Subtotal', cart.subtotalCents);
    if (cart.discountCents > 0) row('Discount', cart.discountCents, true);
    if (cart.requiresShipping || cart.shippingCostCents > 0) row('Shipping', cart.shippingCostCents);
    if (cart.taxCents > 0) row('Tax', cart.taxCents);
    row('Total', cart.grandTotalCents);
    dl.lastElementChild?.classList.add('cart-totals__grand');
    return dl;
  }

  private checkout(): HTMLElement {
    const link = element('a', 'button cart-checkout', 'Checkout');
    link.href = CHECKOUT_URL;
    return element('p').appendChild(link).parentElement!;
  }
}

/** Mounts the cart block: the full-page cart in its cart root, or the badge. */
export function mount(el: HTMLElement, data: unknown): void {
  const variant = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).variant : undefined;
  if (variant === 'badge') {
    const badge = el.querySelector<HTMLElement>('.cart-badge a') ?? el.querySelector<HTMLElement>('.cart-badge');
    if (badge) mountBadge(badge, { subtotal: true });
    return;
  }
  const root = el.querySelector<HTMLElement>('#cart-root');
  if (!root) {
    console.warn(`Veranda: ${el.id || 'a cart block'} has no cart root; left as is.`);
    return;
  }
  new CartView(root).start();
}
