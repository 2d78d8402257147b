// Product quick view (spec 000 §1 "product quick view", §7 `RecordQuickView`): on product
// lists every product card that can be added to the cart is this island's root, with the
// product's data (`data-block-json`: its page, images, excerpt and the add-to-cart data).
// The island adds a 'Quick View' button; it opens a modal dialog with the images, the
// price (formatted like the rest of the shop), the variant choice and add to cart (the
// add-to-cart island, mounted inside the dialog) and a link to the product's page.
//
// The dialog is a native `<dialog>` opened with `showModal` (the page behind is inert),
// focus moves to its first control, Tab and Shift+Tab stay inside, Escape or the Close
// button or a click on the backdrop closes it, and focus goes back to the button that
// opened it. The loader's escape shortcuts leave an open `<dialog>` alone. Its fade-in
// runs only when the visitor has not asked for reduced motion.
//
// Opening it sends the `RecordQuickView/{itemId}` census call through the page's
// telemetry (nothing without analytics or consent; failures swallowed).
import { mount as mountAddToCart, parseAddToCart, type AddToCartData } from '../add-to-cart/add-to-cart';
import { formatMinor } from '../../commerce/money';
import '../../commerce/commerce.css';
import './quick-view.css';
import { isRecord } from '../../data/is-record';
import { focusTrap, focusablesIn } from '../../widgets/motion/focus-trap';

/** The button's words. */
export const QUICK_VIEW = 'Quick View';

/** The island's data. */
export interface QuickViewData {
  /** The product's page. */
  url: string;
  /** Image addresses. */
  images: string[];
  excerpt: string;
  product: AddToCartData;
}

/** Reads the island's data; `null` when it has no product to show. */
export function parseQuickView(data: unknown): QuickViewData | null {
  if (!isRecord(data)) return null;
  const product = parseAddToCart(data.product);
  if (!product) return null;
  const url = typeof data.url === 'string' && data.url.startsWith('/') && !data.url.startsWith('//') ? data.url : '';
  const images = Array.isArray(data.images) ? data.images.filter((i): i is string => typeof i === 'string') : [];
  return { url, images, excerpt: typeof data.excerpt === 'string' ? data.excerpt : '', product };
}

/** The product's price as the server shows it: one price, "from" the lowest, or a sale. */
export function priceNodes(product: AddToCartData): Node[] {
  const cheapest = product.variants.reduce((a, b) => (b.unitPriceCents < a.unitPriceCents ? b : a));
  const varies = product.variants.some((v) => v.unitPriceCents !== cheapest.unitPriceCents);
  const nodes: Node[] = [];
  if (varies) nodes.push(document.createTextNode('from '));
  if (cheapest.onSale) {
    const regular = element('s');
    regular.append(element('span', 'visually-hidden', 'Regular price '), formatMinor(cheapest.priceCents, product.currency));
    nodes.push(regular, document.createTextNode(' '), element('span', 'visually-hidden', 'Sale price '));
  }
  nodes.push(document.createTextNode(formatMinor(cheapest.unitPriceCents, product.currency)));
  return nodes;
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text) el.textContent = text;
  return el;
}


let counter = 0;
/** The open quick view, if any (one at a time). */
let openDialog: HTMLDialogElement | null = null;

/** Records the quick view of `itemId`; never throws, never waits. */
function recordQuickView(itemId: string): void {
  if (!itemId) return;
  try {
    void window.Veranda?.telemetry?.census.quickView?.(itemId).catch(() => {});
  } catch {
    // Telemetry is best effort.
  }
}

/** Opens the quick view of `view`; focus returns to `opener` when it closes. */
export function openQuickView(view: QuickViewData, opener: HTMLElement): HTMLDialogElement {
  openDialog?.dispatchEvent(new Event('quick-view-close'));
  const id = `quick-view-${(counter += 1)}`;
  const { product } = view;
  const dialog = element('dialog', 'quick-view');
  dialog.id = id;
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  const native = typeof dialog.showModal === 'function';
  if (!native) {
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
  }

  const header = element('div', 'quick-view__header');
  const title = element('h2', 'quick-view__title', product.title);
  title.id = `${id}-title`;
  const close = element('button', 'quick-view__close', 'Close');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close quick view');
  header.append(title, close);

  const body = element('div', 'quick-view__body');
  if (view.images.length) {
    const gallery = element('div', 'quick-view__images');
    view.images.forEach((src, i) => {
      const img = element('img');
      img.src = src;
      img.alt = view.images.length > 1 ? `${product.title}, image ${i + 1}` : product.title;
      gallery.append(img);
    });
    body.append(gallery);
  }
  const details = element('div', 'quick-view__details');
  const price = element('p', 'quick-view__price');
  price.append(...priceNodes(product));
  details.append(price);
  if (view.excerpt) details.append(element('p', 'quick-view__excerpt', view.excerpt));
  const control = element('div', 'add-to-cart-form');
  const buttonRow = element('p');
  const add = element('button', 'add-to-cart', 'Add to Cart');
  add.type = 'button';
  add.dataset.itemId = product.itemId;
  buttonRow.append(add);
  control.append(buttonRow);
  details.append(control);
  if (view.url) {
    const more = element('a', 'quick-view__more', 'View full details');
    more.href = view.url;
    details.append(element('p').appendChild(more).parentElement!);
  }
  body.append(details);
  dialog.append(header, body);
  document.body.append(dialog);
  mountAddToCart(control, product);

  let closed = false;
  const finish = () => {
    if (closed) return;
    closed = true;
    if (dialog.open && native) dialog.close();
    dialog.remove();
    if (openDialog === dialog) openDialog = null;
    if (opener.isConnected) opener.focus();
  };
  close.addEventListener('click', finish);
  dialog.addEventListener('quick-view-close', finish);
  // The native Escape closes through `cancel`; handled here so focus goes back.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    finish();
  });
  const trapTab = focusTrap(document, { container: dialog });
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish();
      return;
    }
    trapTab(event);
  });
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside =
      event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside || box.width === 0) finish();
  });

  if (native) dialog.showModal();
  else dialog.setAttribute('open', '');
  openDialog = dialog;
  (focusablesIn(dialog)[0] ?? close).focus();
  recordQuickView(product.itemId);
  return dialog;
}

/** Takes over a product card: adds its 'Quick View' button. */
export function mount(el: HTMLElement, data: unknown): void {
  const view = parseQuickView(data);
  if (!view) {
    console.warn(`Veranda: ${el.id || 'a product card'} has no product for a quick view; left as is.`);
    return;
  }
  const open = element('button', 'quick-view__open', QUICK_VIEW);
  open.type = 'button';
  open.setAttribute('aria-haspopup', 'dialog');
  open.append(element('span', 'visually-hidden', `: ${view.product.title}`));
  open.addEventListener('click', () => openQuickView(view, open));
  el.append(element('p', 'quick-view__opener').appendChild(open).parentElement!);
}
