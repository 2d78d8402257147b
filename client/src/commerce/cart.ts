// The visitor's cart as the server's JSON API gives it (spec 000 §3 "Shopping cart"), the
// calls that change it (`/api/commerce/cart…`, crumb-checked through the data layer) and
// the page-wide `veranda:cart-changed` event every commerce island dispatches after a
// change and listens to (the badge, the cart page).
import { dataRequest } from '../data/index';
import type { CartCoupon, CartEntry as WireEntry, PlanTerms, ShippingOption, ShoppingCart as WireCart } from '../generated/types';
import { isRecord } from '../data/is-record';

/** The event fired on `window` with the new cart (`detail`) after every change. */
export const CART_CHANGED_EVENT = 'veranda:cart-changed';

/** The cart's JSON API. */
export const CART_API = '/api/commerce/cart';

/** Where the checkout starts (spec 000 §2). */
export const CHECKOUT_URL = '/commerce/goto-checkout';

/** One entry of the cart (the fields the islands show). */
export type CartEntry = Pick<
  WireEntry,
  'sku' | 'itemId' | 'title' | 'options' | 'quantity' | 'unitPriceCents' | 'totalCents' | 'planTerms'
>;

/** The fields of the shopping cart the islands show. */
export type ShoppingCart = Pick<
  WireCart,
  | 'validCoupons'
  | 'invalidCoupons'
  | 'subtotalCents'
  | 'taxCents'
  | 'shippingCostCents'
  | 'discountCents'
  | 'grandTotalCents'
  | 'totalQuantity'
  | 'subtotalAmount'
  | 'requiresShipping'
  | 'shippingOptions'
  | 'selectedShippingOption'
> & { entries: CartEntry[] };

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const str = (value: unknown) => (typeof value === 'string' ? value : '');

function coupons(value: unknown): CartCoupon[] {
  return Array.isArray(value)
    ? value.filter(isRecord).map((c) => ({ code: str(c.code), discountCents: num(c.discountCents) }))
    : [];
}

/** A subscription entry's plan terms, worded by the server; absent unless both lines are text. */
function planTerms(value: unknown): PlanTerms | undefined {
  if (!isRecord(value) || typeof value.price !== 'string' || typeof value.renewal !== 'string') return undefined;
  return { price: value.price, renewal: value.renewal };
}

function shippingOption(value: unknown): ShippingOption | null {
  if (!isRecord(value) || typeof value.id !== 'string' || value.id === '') return null;
  return { id: value.id, name: str(value.name) || value.id, costCents: num(value.costCents) };
}

/** Reads the server's cart answer; anything missing is empty or zero. */
export function parseCart(value: unknown): ShoppingCart {
  const cart = isRecord(value) ? value : {};
  const amount = isRecord(cart.subtotalAmount) ? cart.subtotalAmount : {};
  const entries = Array.isArray(cart.entries) ? cart.entries.filter(isRecord) : [];
  return {
    entries: entries.map((e) => {
      const terms = planTerms(e.planTerms);
      return {
        sku: str(e.sku),
        itemId: str(e.itemId),
        title: str(e.title),
        options: Array.isArray(e.options) ? e.options.filter((o): o is string => typeof o === 'string') : [],
        quantity: num(e.quantity),
        unitPriceCents: num(e.unitPriceCents),
        totalCents: num(e.totalCents),
        ...(terms ? { planTerms: terms } : {}),
      };
    }),
    validCoupons: coupons(cart.validCoupons),
    invalidCoupons: coupons(cart.invalidCoupons),
    subtotalCents: num(cart.subtotalCents),
    taxCents: num(cart.taxCents),
    shippingCostCents: num(cart.shippingCostCents),
    discountCents: num(cart.discountCents),
    grandTotalCents: num(cart.grandTotalCents),
    totalQuantity: num(cart.totalQuantity),
    subtotalAmount: { currencyCode: str(amount.currencyCode) || 'USD', value: num(amount.value) },
    requiresShipping: cart.requiresShipping === true,
    shippingOptions: Array.isArray(cart.shippingOptions)
      ? cart.shippingOptions.map(shippingOption).filter((o): o is ShippingOption => o !== null)
      : [],
    selectedShippingOption: shippingOption(cart.selectedShippingOption),
  };
}

/** Tells every island on the page about the new cart. */
export function announceCart(cart: ShoppingCart): void {
  window.dispatchEvent(new CustomEvent<ShoppingCart>(CART_CHANGED_EVENT, { detail: cart }));
}

/** Calls `listener` with the cart after every change; returns a function that stops it. */
export function onCartChanged(listener: (cart: ShoppingCart) => void): () => void {
  const handle = (event: Event) => listener((event as CustomEvent<ShoppingCart>).detail);
  window.addEventListener(CART_CHANGED_EVENT, handle);
  return () => window.removeEventListener(CART_CHANGED_EVENT, handle);
}

/** The visitor's cart (an empty one when they have none yet). */
export async function loadCart(): Promise<ShoppingCart> {
  return parseCart(await dataRequest({ url: CART_API }));
}

async function change(url: string, method: 'POST' | 'PUT' | 'DELETE', data?: unknown): Promise<ShoppingCart> {
  const cart = parseCart(await dataRequest({ url, method, data, asJson: data !== undefined }));
  announceCart(cart);
  return cart;
}

const entryUrl = (sku: string) => `${CART_API}/entries/${encodeURIComponent(sku)}`;

/** Adds `quantity` units of the variant `sku`. */
export function addEntry(sku: string, quantity: number): Promise<ShoppingCart> {
  return change(`${CART_API}/entries`, 'POST', { sku, quantity });
}

/** Sets the quantity of the entry `sku`. */
export function changeQuantity(sku: string, quantity: number): Promise<ShoppingCart> {
  return change(entryUrl(sku), 'PUT', { quantity });
}

/** Removes the entry `sku`. */
export function removeEntry(sku: string): Promise<ShoppingCart> {
  return change(entryUrl(sku), 'DELETE');
}

/** Enters a coupon code (the server lists unknown codes as invalid). */
export function applyCoupon(code: string): Promise<ShoppingCart> {
  return change(`${CART_API}/coupons`, 'POST', { code });
}

/** Removes a coupon code. */
export function removeCoupon(code: string): Promise<ShoppingCart> {
  return change(`${CART_API}/coupons/${encodeURIComponent(code)}`, 'DELETE');
}

/** Chooses the shipping option `optionId`. */
export function selectShipping(optionId: string): Promise<ShoppingCart> {
  return change(`${CART_API}/shipping-option`, 'PUT', { optionId });
}

/** Spec 000 §2: the badge's text and what it is spoken as. */
export function badgeText(count: number): { text: string; spoken: string } {
  if (count > 100) return { text: '100+', spoken: 'More than 100 items in cart' };
  return { text: String(count), spoken: `${count} ${count === 1 ? 'item' : 'items'} in cart` };
}
