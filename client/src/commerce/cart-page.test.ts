import { afterEach, describe, expect, it, vi } from 'vitest';
import { CART_CHANGED_EVENT } from './cart';
import { EMPTY_CART, mount, UNABLE_TO_REMOVE_ITEM, UNABLE_TO_UPDATE_QUANTITY } from './cart-page';
import { cartAnswer, settle, stubFetch, type Call } from './test-support';

const entry = (sku: string, title: string, quantity: number, unit: number) => ({
  sku,
  itemId: sku,
  title,
  options: [],
  quantity,
  unitPriceCents: unit,
  totalCents: quantity * unit,
});

const TWO = cartAnswer({
  entries: [entry('BEANS', 'Beans', 2, 1600), entry('GUIDE', 'Guide', 1, 900)],
  subtotalCents: 4100,
  grandTotalCents: 4100,
  totalQuantity: 3,
  validCoupons: [{ code: 'PORCH10', discountCents: 410 }],
  invalidCoupons: [{ code: 'NOPE', discountCents: 0 }],
  discountCents: 410,
});

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** The server's cart block, mounted; resolves once the first read answered. */
async function cartBlock(answer: (call: Call) => { status: number; body: unknown }): Promise<{ root: HTMLElement; calls: Call[] }> {
  const calls = stubFetch(answer);
  document.body.innerHTML = `<section data-island="cart"><div id="cart-root"><p>Your cart needs JavaScript.</p></div></section>`;
  mount(document.querySelector<HTMLElement>('section')!, { variant: 'full' });
  await settle();
  return { root: document.getElementById('cart-root')!, calls };
}

const cells = (root: HTMLElement) =>
  [...root.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));

describe('the cart page', () => {
  it('shows an empty cart', async () => {
    const { root } = await cartBlock(() => ({ status: 200, body: cartAnswer() }));
    expect(root.querySelector('.cart__empty')!.textContent).toBe(EMPTY_CART);
    expect(root.querySelector('a[href="/shop"]')).not.toBeNull();
  });

  it('lists entries, coupons, totals and the checkout link', async () => {
    const { root } = await cartBlock(() => ({ status: 200, body: TWO }));
    expect(cells(root)).toEqual([
      ['Beans', '$16', '−+', '$32', 'Remove'],
      ['Guide', '$9', '−+', '$9', 'Remove'],
    ]);
    expect(root.querySelector<HTMLButtonElement>('[aria-label="Decrease quantity of Guide"]')!.disabled).toBe(true);
    expect([...root.querySelectorAll('.cart-coupon-list li')].map((li) => li.firstChild!.textContent)).toEqual([
      'PORCH10: −$4.10',
      'NOPE: not a valid coupon',
    ]);
    const totals = [...root.querySelectorAll('.cart-totals dt, .cart-totals dd')].map((n) => n.textContent);
    expect(totals).toEqual(['Subtotal', '$41', 'Discount', '−$4.10', 'Total', '$41']);
    expect(root.querySelector('a.cart-checkout')!.getAttribute('href')).toBe('/commerce/goto-checkout');
  });

  it('changes a quantity and redraws from the answer', async () => {
    const three = cartAnswer({ entries: [entry('BEANS', 'Beans', 3, 1600)], subtotalCents: 4800, grandTotalCents: 4800, totalQuantity: 3 });
    const { root, calls } = await cartBlock((call) => ({ status: 200, body: call.method === 'PUT' ? three : TWO }));
    const changed = vi.fn();
    window.addEventListener(CART_CHANGED_EVENT, changed);
    const more = root.querySelector<HTMLButtonElement>('[aria-label="Increase quantity of Beans"]')!;
    more.focus();
    more.click();
    await settle();
    window.removeEventListener(CART_CHANGED_EVENT, changed);
    expect(calls.at(-1)).toEqual({ url: '/api/commerce/cart/entries/BEANS', method: 'PUT', body: { quantity: 3 } });
    expect(changed).toHaveBeenCalledTimes(1);
    expect(cells(root)).toEqual([['Beans', '$16', '−+', '$48', 'Remove']]);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Increase quantity of Beans');
  });

  it("says 'Unable to update quantity' and 'Unable to remove item' with the reason", async () => {
    const { root, calls } = await cartBlock((call) =>
      call.method === 'GET' ? { status: 200, body: TWO } : { status: 409, body: { error: 'Only 2 left of BEANS.' } },
    );
    root.querySelector<HTMLButtonElement>('[aria-label="Increase quantity of Beans"]')!.click();
    await settle();
    expect(root.querySelector('[role="alert"]')!.textContent).toBe(`${UNABLE_TO_UPDATE_QUANTITY}. Only 2 left of BEANS.`);
    root.querySelector<HTMLButtonElement>('[aria-label="Remove Guide"]')!.click();
    await settle();
    expect(calls.at(-1)).toMatchObject({ url: '/api/commerce/cart/entries/GUIDE', method: 'DELETE' });
    expect(root.querySelector('[role="alert"]')!.textContent).toBe(`${UNABLE_TO_REMOVE_ITEM}. Only 2 left of BEANS.`);
    expect(cells(root)).toHaveLength(2);
  });

  it('enters a coupon code', async () => {
    const { root, calls } = await cartBlock(() => ({ status: 200, body: TWO }));
    root.querySelector<HTMLInputElement>('#cart-coupon-code')!.value = ' SPRING ';
    root.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await settle();
    expect(calls.at(-1)).toEqual({ url: '/api/commerce/cart/coupons', method: 'POST', body: { code: 'SPRING' } });
  });
});
