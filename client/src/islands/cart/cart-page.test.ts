import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CART_CHANGED_EVENT, parseCart } from '../../commerce/cart';
import { EMPTY_CART, mount, UNABLE_TO_CHOOSE_SHIPPING, UNABLE_TO_REMOVE_ITEM, UNABLE_TO_UPDATE_QUANTITY } from './cart-page';
import { cartAnswer, settle, stubFetch, type Call } from '../../commerce/test-support';

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

beforeAll(() => {
  // jsdom lacks modal dialogs: open and close them as the browser does (the remove confirmation).
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
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

/** Answers the open remove confirmation with its `label` button and waits for it to close. */
async function confirmRemoval(label: 'Remove' | 'Keep it'): Promise<void> {
  const dialog = document.querySelector('dialog.popup')!;
  [...dialog.querySelectorAll('button')].find((b) => b.textContent === label)!.click();
  await vi.waitFor(() => expect(document.querySelector('dialog.popup')).toBeNull(), { timeout: 2000 });
  await settle();
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
      ['Beans', '$16.00', '−+', '$32.00', 'Remove'],
      ['Guide', '$9.00', '−+', '$9.00', 'Remove'],
    ]);
    expect(root.querySelector<HTMLButtonElement>('[aria-label="Decrease quantity of Guide"]')!.disabled).toBe(true);
    expect([...root.querySelectorAll('.cart-coupon-list li')].map((li) => li.firstChild!.textContent)).toEqual([
      'PORCH10: −$4.10',
      'NOPE: not a valid coupon',
    ]);
    const totals = [...root.querySelectorAll('.cart-totals dt, .cart-totals dd')].map((n) => n.textContent);
    expect(totals).toEqual(['Subtotal', '$41.00', 'Discount', '−$4.10', 'Total', '$41.00']);
    expect(root.querySelector('a.cart-checkout')!.getAttribute('href')).toBe('/commerce/goto-checkout');
  });

  it("shows a subscription's plan terms under its title as the server words them, and none for other entries", async () => {
    const plan = (price: string, renewal: string) => ({ ...entry('SUB', 'Bean subscription', 1, 2500), planTerms: { price, renewal } });
    const weeks = plan('4 payments of $25.00, every 2 weeks ($100.00 in all)', 'Renews every 2 weeks, 4 payments in all');
    const { root } = await cartBlock(() => ({
      status: 200,
      body: cartAnswer({ entries: [weeks, entry('BEANS', 'Beans', 1, 1600)], subtotalCents: 4100, grandTotalCents: 4100 }),
    }));
    const title = root.querySelector('tr[data-sku="SUB"] th')!;
    expect([...title.querySelectorAll('p')].map((p) => [p.className, p.textContent])).toEqual([
      ['plan-price', '4 payments of $25.00, every 2 weeks ($100.00 in all)'],
      ['renewal', 'Renews every 2 weeks, 4 payments in all'],
    ]);
    expect(root.querySelector('tr[data-sku="BEANS"] th p')).toBeNull();

    const months = plan('2 payments of $50.00, every 3 months ($100.00 in all)', 'Renews every 3 months, 2 payments in all');
    const years = plan('3 payments of $25.00, every year ($75.00 in all)', 'Renews yearly, 3 payments in all');
    for (const changed of [months, years]) {
      window.dispatchEvent(new CustomEvent(CART_CHANGED_EVENT, { detail: parseCart(cartAnswer({ entries: [changed] })) }));
      expect([...root.querySelectorAll('tr[data-sku="SUB"] th p')].map((p) => p.textContent)).toEqual([
        changed.planTerms.price,
        changed.planTerms.renewal,
      ]);
    }
  });

  it('leaves out plan terms that are not two lines of text', async () => {
    const odd = { ...entry('SUB', 'Bean subscription', 1, 2500), planTerms: { price: 15, renewal: null } };
    const { root } = await cartBlock(() => ({ status: 200, body: cartAnswer({ entries: [odd] }) }));
    expect(root.querySelector('tr[data-sku="SUB"] th')!.textContent).toBe('Bean subscription');
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
    expect(cells(root)).toEqual([['Beans', '$16.00', '−+', '$48.00', 'Remove']]);
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
    await confirmRemoval('Remove');
    expect(calls.at(-1)).toMatchObject({ url: '/api/commerce/cart/entries/GUIDE', method: 'DELETE' });
    expect(root.querySelector('[role="alert"]')!.textContent).toBe(`${UNABLE_TO_REMOVE_ITEM}. Only 2 left of BEANS.`);
    expect(cells(root)).toHaveLength(2);
  });

  it('asks before removing an entry: Remove removes it, Keep it keeps it', async () => {
    const ONE = cartAnswer({ entries: [entry('BEANS', 'Beans', 2, 1600)], subtotalCents: 3200, grandTotalCents: 3200, totalQuantity: 2 });
    const { root, calls } = await cartBlock((call) => ({ status: 200, body: call.method === 'GET' ? TWO : ONE }));
    const remove = root.querySelector<HTMLButtonElement>('[aria-label="Remove Guide"]')!;
    remove.focus();
    remove.click();
    const dialog = document.querySelector('dialog.popup')!;
    expect(dialog.querySelector('h2')!.textContent).toBe('Remove item');
    expect(dialog.querySelector('p')!.textContent).toBe('Remove Guide from your cart?');
    expect([...dialog.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Keep it', 'Remove']);
    await confirmRemoval('Keep it');
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    expect(cells(root)).toHaveLength(2);
    expect(document.activeElement).toBe(remove);

    remove.click();
    await confirmRemoval('Remove');
    expect(calls.at(-1)).toMatchObject({ url: '/api/commerce/cart/entries/GUIDE', method: 'DELETE' });
    await vi.waitFor(() => expect(cells(root)).toHaveLength(1));
    expect(root.querySelector('[role="status"]')!.textContent).toBe('Guide removed from your cart.');
  });

  it('enters a coupon code', async () => {
    const { root, calls } = await cartBlock(() => ({ status: 200, body: TWO }));
    root.querySelector<HTMLInputElement>('#cart-coupon-code')!.value = ' SPRING ';
    root.querySelector('form')!.dispatchEvent(new Event('submit', { cancelable: true }));
    await settle();
    expect(calls.at(-1)).toEqual({ url: '/api/commerce/cart/coupons', method: 'POST', body: { code: 'SPRING' } });
  });

  it('lists the shipping options, sends the choice and shows the new totals', async () => {
    const options = [
      { id: 'standard', name: 'Standard shipping', costCents: 600 },
      { id: 'express', name: 'Express shipping', costCents: 1500 },
    ];
    const shipping = (selected: (typeof options)[0] | null, cost: number) =>
      cartAnswer({
        entries: [entry('BEANS', 'Beans', 1, 1600)],
        subtotalCents: 1600,
        shippingCostCents: cost,
        grandTotalCents: 1600 + cost,
        totalQuantity: 1,
        requiresShipping: true,
        shippingOptions: options,
        selectedShippingOption: selected,
      });
    const { root, calls } = await cartBlock((call) =>
      call.method === 'PUT' ? { status: 200, body: shipping(options[1]!, 1500) } : { status: 200, body: shipping(options[0]!, 600) },
    );
    const radios = [...root.querySelectorAll<HTMLInputElement>('.cart-shipping input[type="radio"]')];
    expect(radios.map((r) => [r.labels![0]!.textContent, r.checked])).toEqual([
      ['Standard shipping: $6.00', true],
      ['Express shipping: $15.00', false],
    ]);
    expect(root.querySelector('.cart-shipping legend')!.textContent).toBe('Shipping');
    radios[1]!.focus();
    radios[1]!.checked = true;
    radios[1]!.dispatchEvent(new Event('change'));
    await settle();
    expect(calls.at(-1)).toEqual({ url: '/api/commerce/cart/shipping-option', method: 'PUT', body: { optionId: 'express' } });
    const totals = [...root.querySelectorAll('.cart-totals dt, .cart-totals dd')].map((n) => n.textContent);
    expect(totals).toEqual(['Subtotal', '$16.00', 'Shipping', '$15.00', 'Total', '$31.00']);
    expect(root.querySelector<HTMLInputElement>('.cart-shipping input[value="express"]')!.checked).toBe(true);
    expect(document.activeElement).toBe(root.querySelector('.cart-shipping input[value="express"]'));
  });

  it('shows a refused shipping choice and keeps the chosen option', async () => {
    const cart = cartAnswer({
      entries: [entry('BEANS', 'Beans', 1, 1600)],
      requiresShipping: true,
      shippingOptions: [{ id: 'standard', name: 'Standard shipping', costCents: 600 }, { id: 'gone', name: 'Gone', costCents: 1 }],
      selectedShippingOption: { id: 'standard', name: 'Standard shipping', costCents: 600 },
    });
    const { root } = await cartBlock((call) =>
      call.method === 'GET' ? { status: 200, body: cart } : { status: 400, body: { error: "There is no shipping option 'gone'." } },
    );
    const gone = root.querySelector<HTMLInputElement>('.cart-shipping input[value="gone"]')!;
    gone.checked = true;
    gone.dispatchEvent(new Event('change'));
    await settle();
    expect(root.querySelector('[role="alert"]')!.textContent).toBe(`${UNABLE_TO_CHOOSE_SHIPPING}. There is no shipping option 'gone'.`);
    expect(root.querySelector<HTMLInputElement>('.cart-shipping input[value="standard"]')!.checked).toBe(true);
  });

  it('shows no shipping choice when nothing ships', async () => {
    const { root } = await cartBlock(() => ({ status: 200, body: TWO }));
    expect(root.querySelector('.cart-shipping')).toBeNull();
  });
});
