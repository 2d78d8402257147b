import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, optionsOf, parseAddToCart, parseQuantity, variantFor, type ProductVariant } from './add-to-cart';
import { CART_CHANGED_EVENT } from '../../commerce/cart';
import { cartAnswer, settle, stubFetch } from '../../commerce/test-support';

const variant = (sku: string, over: Partial<ProductVariant> = {}): ProductVariant => ({
  sku,
  priceCents: 4800,
  unitPriceCents: 4800,
  onSale: false,
  available: true,
  optionValues: [{ optionName: 'Colour', value: sku }],
  ...over,
});

const DATA = {
  itemId: 'apron',
  title: 'Linen apron',
  currency: 'USD',
  maxQuantity: 1000,
  variants: [
    variant('Sage', { unitPriceCents: 3900, onSale: true }),
    variant('Rust'),
    variant('Blue', { available: false }),
  ],
};

/** The server's markup of the control. */
function control(): HTMLElement {
  document.body.innerHTML = `<div class="add-to-cart-form" data-island="add-to-cart">
    <p><button type="button" class="add-to-cart" data-item-id="apron" disabled>Add to Cart</button></p>
    <noscript><p>Adding to the cart needs JavaScript.</p></noscript></div>`;
  return document.querySelector<HTMLElement>('.add-to-cart-form')!;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('add to cart data', () => {
  it('needs at least one variant with a sku', () => {
    expect(parseAddToCart(null)).toBeNull();
    expect(parseAddToCart({ variants: [{ sku: '' }] })).toBeNull();
    expect(parseAddToCart(DATA)?.variants.map((v) => v.sku)).toEqual(['Sage', 'Rust', 'Blue']);
  });

  it('offers variants without telling option values by SKU', () => {
    const parsed = parseAddToCart({ ...DATA, variants: [variant('A', { optionValues: [] }), variant('B', { optionValues: [] })] });
    expect([...optionsOf(parsed!.variants)]).toEqual([['Option', ['A', 'B']]]);
  });

  it('lists options in order and finds the variant of a choice', () => {
    expect([...optionsOf(DATA.variants)]).toEqual([['Colour', ['Sage', 'Rust', 'Blue']]]);
    expect(variantFor(DATA.variants, new Map([['Colour', 'Rust']]))?.sku).toBe('Rust');
    expect(variantFor(DATA.variants, new Map([['Colour', 'Pink']]))).toBeUndefined();
  });

  it('takes whole quantities from 1 to the limit', () => {
    expect(parseQuantity('2', 1000)).toBe(2);
    expect(parseQuantity(' 1000 ', 1000)).toBe(1000);
    for (const bad of ['0', '-1', '1.5', '1001', '', 'two']) expect(parseQuantity(bad, 1000)).toBeNull();
  });
});

describe('the add-to-cart island', () => {
  it('shows the chosen variant: sale price, sold out', () => {
    const el = control();
    mount(el, DATA);
    const select = el.querySelector('select')!;
    const button = el.querySelector<HTMLButtonElement>('button.add-to-cart')!;
    expect(el.querySelector('noscript')).toBeNull();
    expect(el.querySelector('label')!.textContent).toBe('Colour');
    expect(el.querySelector('.add-to-cart__price')!.textContent).toBe('Regular price $48.00 Sale price $39.00');
    expect(button.disabled).toBe(false);
    select.value = 'Blue';
    select.dispatchEvent(new Event('change'));
    expect(button.textContent).toBe('Sold Out');
    expect(button.disabled).toBe(true);
    select.value = 'Rust';
    select.dispatchEvent(new Event('change'));
    expect(el.querySelector('.add-to-cart__price')!.textContent).toBe('$48.00');
    expect(button.textContent).toBe('Add to Cart');
  });

  it('adds the chosen variant, announces it and tells the page', async () => {
    const calls = stubFetch(() => ({ status: 200, body: cartAnswer({ totalQuantity: 3 }) }));
    const changed = vi.fn();
    window.addEventListener(CART_CHANGED_EVENT, changed);
    const el = control();
    mount(el, DATA);
    el.querySelector<HTMLInputElement>('input[type="number"]')!.value = '3';
    el.querySelector<HTMLButtonElement>('button.add-to-cart')!.click();
    await settle();
    window.removeEventListener(CART_CHANGED_EVENT, changed);
    expect(calls).toEqual([{ url: '/api/commerce/cart/entries', method: 'POST', body: { sku: 'Sage', quantity: 3 } }]);
    expect(el.querySelector('[role="status"]')!.textContent).toBe('Added 3 × Linen apron to your cart.');
    expect(changed).toHaveBeenCalledTimes(1);
    expect((changed.mock.calls[0]![0] as CustomEvent).detail.totalQuantity).toBe(3);
  });

  it('fires the add-to-cart ad-pixel event with the variant once the cart has it', async () => {
    stubFetch(() => ({ status: 200, body: cartAnswer({ totalQuantity: 1 }) }));
    const recordEvent = vi.fn(async () => {});
    window.Veranda = { context: null, telemetry: { events: { recordEvent } } as never };
    const el = control();
    mount(el, DATA);
    expect(recordEvent).not.toHaveBeenCalled();
    el.querySelector<HTMLButtonElement>('button.add-to-cart')!.click();
    await settle();
    delete window.Veranda;
    expect(recordEvent.mock.calls).toEqual([['add-to-cart', { variantId: 'Sage' }]]);
  });

  it('refuses a bad quantity without a call and shows the server refusal', async () => {
    const calls = stubFetch(() => ({ status: 409, body: { error: 'Only 2 left of VER-APRON-SAGE.' } }));
    const el = control();
    mount(el, DATA);
    const quantity = el.querySelector<HTMLInputElement>('input[type="number"]')!;
    const button = el.querySelector<HTMLButtonElement>('button.add-to-cart')!;
    quantity.value = '0';
    button.click();
    expect(calls).toEqual([]);
    expect(el.querySelector('[role="alert"]')!.textContent).toBe('Enter a quantity from 1 to 1000.');
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    quantity.value = '5';
    button.click();
    await settle();
    expect(el.querySelector('[role="alert"]')!.textContent).toBe('Only 2 left of VER-APRON-SAGE.');
    expect(el.querySelector('[role="status"]')!.textContent).toBe('');
  });

  it('takes over the plain form: its fields go, a submit adds through the API and never posts', async () => {
    const calls = stubFetch(() => ({ status: 200, body: cartAnswer({ totalQuantity: 1 }) }));
    document.body.innerHTML = `<div class="add-to-cart-form" data-island="add-to-cart">
      <form method="post" action="/commerce/cart/add">
        <div class="add-to-cart__plain"><input type="hidden" name="returnTo" value="/shop/apron">
          <label for="p-sku">Option</label><select id="p-sku" name="sku"><option value="Sage">Sage</option></select>
          <label for="p-q">Quantity</label><input id="p-q" name="quantity" type="number" value="1"></div>
        <p><button type="submit" class="add-to-cart" data-item-id="apron">Add to Cart</button></p>
      </form><p class="add-to-cart__plain"><a href="/commerce/cart">View your cart</a></p></div>`;
    const el = document.querySelector<HTMLElement>('.add-to-cart-form')!;
    mount(el, DATA);
    expect(el.querySelector('.add-to-cart__plain')).toBeNull();
    expect(el.querySelectorAll('select')).toHaveLength(1);
    expect(el.querySelectorAll('input[type="number"]')).toHaveLength(1);
    const submit = new Event('submit', { cancelable: true });
    el.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    el.querySelector<HTMLButtonElement>('button.add-to-cart')!.click();
    await settle();
    expect(calls).toEqual([{ url: '/api/commerce/cart/entries', method: 'POST', body: { sku: 'Sage', quantity: 1 } }]);
  });
});
