// The add-to-cart island (spec 000 §3 "Product", §4): enhances the server's disabled
// button on product blocks and product pages with a choice of variant (one select per
// option), a quantity, the chosen variant's price (the sale price beside the struck
// original), its sold-out state, and an add through the cart API without a reload.
// Success is announced in a polite live region and fires the ad-pixel `add-to-cart`
// event; a refusal shows the data layer's message (spec 000 §8) in an alert. The server's
// markup is a plain form that works without JavaScript; its fields are replaced here.
import { addEntry } from '../../commerce/cart';
import { formatMinor } from '../../commerce/money';
import '../../commerce/commerce.css';
import { isRecord } from '../../data/is-record';
import { AD_PIXEL_EVENTS, firePixel } from '../../loader/telemetry/ad-pixel';

/** One variant as the server describes it. */
export interface ProductVariant {
  sku: string;
  priceCents: number;
  unitPriceCents: number;
  onSale: boolean;
  available: boolean;
  optionValues: { optionName: string; value: string }[];
}

/** The island's data (`data-block-json`). */
export interface AddToCartData {
  itemId: string;
  title: string;
  currency: string;
  maxQuantity: number;
  variants: ProductVariant[];
}

/** The button's words. */
export const ADD_TO_CART = 'Add to Cart';
/** The button's words when the chosen variant has no stock. */
export const SOLD_OUT = 'Sold Out';
/** Said when the chosen options match no variant. */
export const UNAVAILABLE = 'This combination is not available.';

/** Reads the island's data; `null` when it names no variant. */
export function parseAddToCart(data: unknown): AddToCartData | null {
  if (!isRecord(data) || !Array.isArray(data.variants)) return null;
  const variants = data.variants.filter(isRecord).flatMap((v): ProductVariant[] => {
    if (typeof v.sku !== 'string' || v.sku === '') return [];
    const options = Array.isArray(v.optionValues) ? v.optionValues.filter(isRecord) : [];
    return [
      {
        sku: v.sku,
        priceCents: Number(v.priceCents) || 0,
        unitPriceCents: Number(v.unitPriceCents) || 0,
        onSale: v.onSale === true,
        available: v.available === true,
        optionValues: options.map((o) => ({ optionName: String(o.optionName ?? ''), value: String(o.value ?? '') })),
      },
    ];
  });
  if (variants.length === 0) return null;
  // Several variants that option values do not tell apart are chosen by SKU.
  const told = new Set(variants.map((v) => v.optionValues.map((o) => `${o.optionName}\u0000${o.value}`).join('\u0001')));
  if (variants.length > 1 && told.size < variants.length) {
    for (const v of variants) v.optionValues = [{ optionName: 'Option', value: v.sku }];
  }
  return {
    itemId: typeof data.itemId === 'string' ? data.itemId : '',
    title: typeof data.title === 'string' ? data.title : '',
    currency: typeof data.currency === 'string' ? data.currency : 'USD',
    maxQuantity: Number.isInteger(data.maxQuantity) && Number(data.maxQuantity) > 0 ? Number(data.maxQuantity) : 1,
    variants,
  };
}

/** The option names in order of first appearance, each with its values. */
export function optionsOf(variants: ProductVariant[]): Map<string, string[]> {
  const options = new Map<string, string[]>();
  for (const variant of variants) {
    for (const { optionName, value } of variant.optionValues) {
      const values = options.get(optionName) ?? [];
      if (!values.includes(value)) values.push(value);
      options.set(optionName, values);
    }
  }
  return options;
}

/** The variant whose option values are `chosen` (by option name), if any. */
export function variantFor(variants: ProductVariant[], chosen: ReadonlyMap<string, string>): ProductVariant | undefined {
  if (variants.length === 1) return variants[0];
  return variants.find((v) => v.optionValues.every((o) => chosen.get(o.optionName) === o.value));
}

/** A quantity typed by the visitor: a whole number from 1 to `max`, else `null`. */
export function parseQuantity(text: string, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const quantity = Number(text);
  return quantity >= 1 && quantity <= max ? quantity : null;
}

let counter = 0;

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}

/** Takes over `el`, the server's add-to-cart control, with the product's data. */
export function mount(el: HTMLElement, data: unknown): void {
  const product = parseAddToCart(data);
  const button = el.querySelector<HTMLButtonElement>('button.add-to-cart');
  if (!product || !button) {
    console.warn(`Veranda: ${el.id || 'an add-to-cart control'} has no variants to add; left as is.`);
    return;
  }
  const id = `add-to-cart-${(counter += 1)}`;
  el.querySelectorAll('noscript, .add-to-cart__plain').forEach((n) => n.remove());
  // Without JavaScript the control is a plain form post; here the click adds through the
  // API, and Enter in a field (which submits the form) clicks the button instead.
  button.form?.addEventListener('submit', (event) => event.preventDefault());
  el.querySelectorAll('.sold-out').forEach((n) => (n.closest('p') ?? n).remove());

  const selects = new Map<string, HTMLSelectElement>();
  const controls = document.createDocumentFragment();
  let index = 0;
  for (const [name, values] of optionsOf(product.variants)) {
    if (product.variants.length === 1) break;
    const selectId = `${id}-option-${(index += 1)}`;
    const label = element('label', '', name);
    label.htmlFor = selectId;
    const select = element('select');
    select.id = selectId;
    for (const value of values) select.append(new Option(value, value));
    selects.set(name, select);
    controls.append(label, select);
  }

  const price = element('p', 'add-to-cart__price');
  // With one variant the server's price beside the control already says it all.
  price.hidden = product.variants.length === 1;
  const stock = element('p', 'add-to-cart__stock');
  const quantityLabel = element('label', '', 'Quantity');
  quantityLabel.htmlFor = `${id}-quantity`;
  const quantity = element('input');
  Object.assign(quantity, { id: `${id}-quantity`, type: 'number', min: '1', max: String(product.maxQuantity), value: '1' });
  quantity.inputMode = 'numeric';
  const status = element('p', 'add-to-cart__status');
  status.setAttribute('role', 'status');
  const error = element('p', 'add-to-cart__error');
  error.setAttribute('role', 'alert');
  controls.append(price, stock, quantityLabel, quantity);
  button.parentElement?.before(controls);
  el.append(status, error);

  let busy = false;
  const chosen = () => variantFor(product.variants, new Map([...selects].map(([name, s]) => [name, s.value])));
  const update = () => {
    const variant = chosen();
    price.replaceChildren();
    stock.textContent = '';
    if (!variant) stock.textContent = UNAVAILABLE;
    else if (variant.onSale) {
      const regular = element('s');
      regular.append(element('span', 'visually-hidden', 'Regular price '), formatMinor(variant.priceCents, product.currency));
      price.append(regular, ' ', element('span', 'visually-hidden', 'Sale price '), formatMinor(variant.unitPriceCents, product.currency));
    } else price.textContent = formatMinor(variant.unitPriceCents, product.currency);
    if (variant && !variant.available) stock.textContent = 'Sold out';
    const sellable = variant?.available === true;
    button.textContent = variant && !sellable ? SOLD_OUT : ADD_TO_CART;
    // Not disabled while adding: a disabled button would lose the keyboard focus.
    button.disabled = !sellable;
  };
  selects.forEach((select) => select.addEventListener('change', update));

  button.addEventListener('click', () => {
    const variant = chosen();
    if (!variant?.available || busy) return;
    status.textContent = '';
    error.textContent = '';
    const units = parseQuantity(quantity.value, product.maxQuantity);
    if (units === null) {
      error.textContent = `Enter a quantity from 1 to ${product.maxQuantity}.`;
      quantity.setAttribute('aria-invalid', 'true');
      quantity.focus();
      return;
    }
    quantity.removeAttribute('aria-invalid');
    busy = true;
    button.setAttribute('aria-busy', 'true');
    addEntry(variant.sku, units)
      .then(() => {
        status.textContent = `Added ${units} × ${product.title} to your cart.`;
        firePixel(AD_PIXEL_EVENTS.addToCart, { variantId: variant.sku });
      })
      .catch((failure: unknown) => {
        error.textContent = failure instanceof Error ? failure.message : String(failure);
      })
      .finally(() => {
        busy = false;
        button.removeAttribute('aria-busy');
        update();
      });
  });
  update();
}
