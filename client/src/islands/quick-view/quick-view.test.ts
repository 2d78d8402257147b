import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Telemetry } from '../../loader/telemetry';
import { createCensus } from '../../loader/telemetry/census';
import { pageContext } from '../../loader/telemetry/test-support';
import { mount, parseQuickView, QUICK_VIEW } from './quick-view';
import { cartAnswer, settle, stubFetch } from '../../commerce/test-support';

const DATA = {
  url: '/shop/linen-apron',
  images: ['/images/apron.png'],
  excerpt: 'Washed linen.',
  product: {
    itemId: 'apron1',
    title: 'Linen apron',
    currency: 'USD',
    maxQuantity: 1000,
    variants: [
      { sku: 'SAGE', priceCents: 4800, unitPriceCents: 3900, onSale: true, available: true, optionValues: [{ optionName: 'Colour', value: 'Sage' }] },
      { sku: 'RUST', priceCents: 4800, unitPriceCents: 4800, onSale: false, available: true, optionValues: [{ optionName: 'Colour', value: 'Rust' }] },
    ],
  },
};

/** A product card on a list, with a link before it and after it, mounted. */
function card(census?: Partial<Telemetry['census']>): HTMLElement {
  document.body.innerHTML = `<a href="/before">Before</a><ul><li><article class="item-card" data-island="quick-view">
    <h2><a href="/shop/linen-apron">Linen apron</a></h2><p class="price">from $39</p></article></li></ul><a href="/after">After</a>`;
  if (census) window.Veranda = { telemetry: { census } as unknown as Telemetry } as typeof window.Veranda;
  const el = document.querySelector<HTMLElement>('article')!;
  mount(el, DATA);
  return el;
}

const openButton = (el: HTMLElement) => el.querySelector<HTMLButtonElement>('button.quick-view__open')!;
const dialog = () => document.querySelector<HTMLDialogElement>('dialog.quick-view');
const key = (target: Element, init: KeyboardEventInit) =>
  target.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init }));

afterEach(() => {
  vi.unstubAllGlobals();
  delete window.Veranda;
  document.body.innerHTML = '';
});

describe('quick view data', () => {
  it('needs a product with a variant and keeps only same-site links', () => {
    expect(parseQuickView(null)).toBeNull();
    expect(parseQuickView({ ...DATA, product: { variants: [] } })).toBeNull();
    expect(parseQuickView({ ...DATA, url: '//evil.example/x' })!.url).toBe('');
    expect(parseQuickView({ ...DATA, url: 'javascript:alert(1)' })!.url).toBe('');
    expect(parseQuickView(DATA)!.images).toEqual(['/images/apron.png']);
  });
});

describe('the quick view island', () => {
  it('adds a named Quick View button that opens a labelled modal dialog with focus inside', () => {
    const el = card({ quickView: vi.fn(() => Promise.resolve()) });
    const open = openButton(el);
    expect(open.textContent).toBe(`${QUICK_VIEW}: Linen apron`);
    expect(open.getAttribute('aria-haspopup')).toBe('dialog');
    open.focus();
    open.click();
    const box = dialog()!;
    expect(box).not.toBeNull();
    expect(box.open).toBe(true);
    const title = document.getElementById(box.getAttribute('aria-labelledby')!)!;
    expect(title.textContent).toBe('Linen apron');
    expect(box.contains(document.activeElement)).toBe(true);
    expect(document.activeElement!.getAttribute('aria-label')).toBe('Close quick view');
    // Images, the price as the shop shows it, the variant choice and the product's page.
    expect(box.querySelector('img')!.getAttribute('src')).toBe('/images/apron.png');
    expect(box.querySelector('img')!.alt).toBe('Linen apron');
    expect(box.querySelector('.quick-view__price')!.textContent).toBe('from Regular price $48.00 Sale price $39.00');
    expect([...box.querySelectorAll('select option')].map((o) => o.textContent)).toEqual(['Sage', 'Rust']);
    expect(box.querySelector<HTMLAnchorElement>('a.quick-view__more')!.getAttribute('href')).toBe('/shop/linen-apron');
  });

  it('keeps Tab and Shift+Tab inside the dialog', () => {
    const el = card();
    openButton(el).click();
    const box = dialog()!;
    const controls = [...box.querySelectorAll<HTMLElement>('button:not([disabled]), select, input, a[href]')];
    const first = controls[0]!;
    const last = controls[controls.length - 1]!;
    expect(first.getAttribute('aria-label')).toBe('Close quick view');
    expect(last.textContent).toBe('View full details');
    last.focus();
    key(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    key(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('closes on Escape and on Close, and gives focus back to its button', () => {
    const el = card();
    const open = openButton(el);
    open.focus();
    open.click();
    const escape = new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true });
    document.activeElement!.dispatchEvent(escape);
    expect(escape.defaultPrevented).toBe(true);
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(open);
    open.click();
    dialog()!.querySelector<HTMLButtonElement>('.quick-view__close')!.click();
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(open);
  });

  it('sends the RecordQuickView census call on every opening, swallowing failures', async () => {
    const quickView = vi.fn(() => Promise.reject(new Error('offline')));
    const el = card({ quickView });
    openButton(el).click();
    await settle();
    expect(quickView).toHaveBeenCalledWith('apron1');
    dialog()!.querySelector<HTMLButtonElement>('.quick-view__close')!.click();
    openButton(el).click();
    expect(quickView).toHaveBeenCalledTimes(2);
    expect(dialog()).not.toBeNull();
  });

  it('opens without telemetry on the page', () => {
    const el = card();
    openButton(el).click();
    expect(dialog()).not.toBeNull();
  });

  it('adds the chosen variant to the cart from the dialog', async () => {
    const calls = stubFetch(() => ({ status: 200, body: cartAnswer({ totalQuantity: 2 }) }));
    const el = card();
    openButton(el).click();
    const box = dialog()!;
    const select = box.querySelector('select')!;
    select.value = 'Rust';
    select.dispatchEvent(new Event('change'));
    box.querySelector<HTMLInputElement>('input[type="number"]')!.value = '2';
    box.querySelector<HTMLButtonElement>('button.add-to-cart')!.click();
    await settle();
    expect(calls).toEqual([{ url: '/api/commerce/cart/entries', method: 'POST', body: { sku: 'RUST', quantity: 2 } }]);
    expect(box.querySelector('[role="status"]')!.textContent).toBe('Added 2 × Linen apron to your cart.');
  });
});

describe('the RecordQuickView census call', () => {
  it('posts to /api/census/RecordQuickView/{id} only when analytics are on', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        seen.push(url);
        return new Response(null, { status: 204 });
      }),
    );
    await createCensus(window, pageContext(), '').quickView!('6d0e4b83');
    await createCensus(window, pageContext({ analyticsEnabled: false }), '').quickView!('6d0e4b83');
    await createCensus(window, null, '').quickView!('6d0e4b83');
    expect(seen).toEqual(['/api/census/RecordQuickView/6d0e4b83']);
  });
});
