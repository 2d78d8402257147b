import { afterEach, describe, expect, it, vi } from 'vitest';
import { announceCart, badgeText, parseCart } from '../../commerce/cart';
import { INITIALISED_ATTRIBUTE, mount, mountBadge } from './cart-badge';
import { cartAnswer, settle, stubFetch } from '../../commerce/test-support';

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

function link(): HTMLElement {
  document.body.innerHTML = '<a class="cart-badge" href="/cart" data-island="cart-badge">Cart</a>';
  return document.querySelector<HTMLElement>('.cart-badge')!;
}

describe('badge text', () => {
  it("reads the count, '100+' above 100, and is spoken", () => {
    expect(badgeText(0)).toEqual({ text: '0', spoken: '0 items in cart' });
    expect(badgeText(1)).toEqual({ text: '1', spoken: '1 item in cart' });
    expect(badgeText(100)).toEqual({ text: '100', spoken: '100 items in cart' });
    expect(badgeText(101)).toEqual({ text: '100+', spoken: 'More than 100 items in cart' });
  });
});

describe('the cart badge', () => {
  it('is initialised after the first sync and hidden at zero', async () => {
    const calls = stubFetch(() => ({ status: 200, body: cartAnswer() }));
    const el = link();
    mount(el);
    expect(el.hasAttribute(INITIALISED_ATTRIBUTE)).toBe(false);
    await settle();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/commerce/cart']);
    expect(el.hasAttribute(INITIALISED_ATTRIBUTE)).toBe(true);
    expect(el.querySelector<HTMLElement>('.cart-badge__count')!.hidden).toBe(true);
  });

  it('follows every cart change, with the subtotal when asked', async () => {
    stubFetch(() => ({ status: 200, body: cartAnswer({ totalQuantity: 2, subtotalCents: 3200 }) }));
    const el = link();
    const stop = mountBadge(el, { subtotal: true });
    await settle();
    const count = el.querySelector<HTMLElement>('.cart-badge__count')!;
    expect(count.hidden).toBe(false);
    expect(count.textContent).toBe('2');
    expect(el.querySelector('.visually-hidden')!.textContent).toBe('2 items in cart');
    expect(el.querySelector('.cart-badge__subtotal')!.textContent).toBe('$32.00');
    announceCart(parseCart(cartAnswer({ totalQuantity: 150, subtotalCents: 250050 })));
    expect(count.textContent).toBe('100+');
    expect(el.querySelector('.visually-hidden')!.textContent).toBe('More than 100 items in cart');
    expect(el.querySelector('.cart-badge__subtotal')!.textContent).toBe('$2,500.50');
    stop();
  });
});
