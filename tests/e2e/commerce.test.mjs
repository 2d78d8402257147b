// Browser end-to-end test of the shop: starts the binary named by VERANDA_BIN with the demo
// site in a fresh data dir, then in Debian's Chromium, with the keyboard alone, a visitor:
// - sees a sold-out product's button say 'Sold Out' and stay disabled;
// - chooses the 2 lb house blend, two of them, and adds them: the live region says so and the
//   header's cart badge shows 2; adds the brewing guide: the badge shows 3;
// - on the cart page raises the beans to 3 with the stepper (line and totals follow the
//   server's answer), removes the guide, and the badge follows every change;
// - checks out with the built-in offline provider and lands on the order confirmed page.
// A visitor who puts the bean subscription in the cart sees its plan terms under its title
// on the cart page, before and after the cart island redraws it, and axe-core finds nothing.
// A visitor who arrives from a campaign link on a product page sends the Track image
// request, the view-product-page ad-pixel event, and add-to-cart once the cart has the item.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test commerce.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`, or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, eventually, useServer } from './support.mjs';

const env = useServer({ name: 'commerce' });
const { serverLog } = env;

/** Presses Tab (at most 80 times) until the focused element matches `selector`. */
async function tabTo(page, selector) {
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  throw new Error(`Tab never reached ${selector}${serverLog()}`);
}

/** Waits for the header badge to read `text` (its count; spoken as `spoken`). */
async function badgeReads(page, text, spoken) {
  const badge = page.locator('.site-header .cart-badge');
  await badge.locator('.cart-badge__count', { hasText: text }).waitFor({ state: 'visible' });
  assert.equal(await badge.locator('.visually-hidden').textContent(), spoken);
  assert.equal(await badge.getAttribute('data-cart-initialised'), '');
}

/** The text of the cart totals' row `term`. */
async function total(page, term) {
  return page.locator('.cart-totals dt', { hasText: term }).locator('xpath=following-sibling::dd[1]').textContent();
}

test('a visitor shops, changes the cart and checks out with the keyboard alone', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (msg) => {
    const where = msg.location()?.url ?? '';
    if (msg.type() === 'error' && !where.endsWith('/favicon.ico')) problems.push(`console: ${msg.text()} (${where})`);
  });
  try {
    // A sold-out product.
    await page.goto(`${env.base}/shop/enamel-mug`);
    await page.locator('[data-island="add-to-cart"][data-island-state="mounted"]').waitFor();
    const soldOut = page.locator('.product-details button.add-to-cart');
    assert.equal((await soldOut.textContent()).trim(), 'Sold Out');
    assert.equal(await soldOut.isDisabled(), true);

    // The house blend: the empty cart's badge shows no count.
    await page.goto(`${env.base}/shop/house-blend`);
    await page.locator('[data-island="add-to-cart"][data-island-state="mounted"]').waitFor();
    await page.locator('.site-header .cart-badge[data-cart-initialised]').waitFor();
    assert.equal(await page.locator('.site-header .cart-badge__count').isHidden(), true);
    const form = page.locator('.product-details .add-to-cart-form');
    await tabTo(page, '.add-to-cart-form select');
    await page.keyboard.press('ArrowDown');
    assert.equal(await form.locator('select').inputValue(), '2 lb');
    assert.equal((await form.locator('.add-to-cart__price').textContent()).trim(), '$38.00');
    await tabTo(page, '.add-to-cart-form input[type="number"]');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await tabTo(page, '.add-to-cart-form button.add-to-cart');
    await page.keyboard.press('Enter');
    await form.locator('[role="status"]', { hasText: 'Added 2 × House blend coffee beans to your cart.' }).waitFor();
    await badgeReads(page, '2', '2 items in cart');
    assert.equal(await form.locator('[role="alert"]').textContent(), '');

    // The guide, one unit.
    await page.goto(`${env.base}/shop/brewing-guide`);
    await page.locator('[data-island="add-to-cart"][data-island-state="mounted"]').waitFor();
    await tabTo(page, '.add-to-cart-form button.add-to-cart');
    await page.keyboard.press('Enter');
    await page.locator('.add-to-cart-form [role="status"]', { hasText: 'to your cart' }).waitFor();
    await badgeReads(page, '3', '3 items in cart');

    // The cart page: both entries, then 3 bags of beans, then without the guide.
    await page.goto(`${env.base}/cart`);
    // The server draws the cart first; the island then redraws it from the cart's JSON.
    await page.locator('[data-island="cart"][data-island-state="mounted"] #cart-root:not([aria-busy])').waitFor();
    const rows = page.locator('#cart-root .cart-entries tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), 2);
    assert.equal(await total(page, 'Subtotal'), '$85.00');
    await tabTo(page, 'button[aria-label="Increase quantity of House blend coffee beans"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      () => document.querySelector('input[aria-label="Quantity of House blend coffee beans"]')?.value === '3',
    );
    assert.equal(await total(page, 'Subtotal'), '$123.00');
    await badgeReads(page, '4', '4 items in cart');
    // Focus stays on the stepper after the redraw.
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Increase quantity of House blend coffee beans',
    );
    await tabTo(page, 'button[aria-label="Remove The Veranda brewing guide (PDF)"]');
    await page.keyboard.press('Enter');
    // Removing asks first (a confirmation popup); its Remove button removes the entry.
    await page.getByRole('dialog', { name: 'Remove item' }).getByRole('button', { name: 'Remove', exact: true }).click();
    await page.locator('#cart-root [role="status"]', { hasText: 'removed from your cart' }).waitFor();
    assert.equal(await rows.count(), 1);
    assert.equal(await total(page, 'Subtotal'), '$114.00');
    await badgeReads(page, '3', '3 items in cart');

    // Checkout with the offline provider.
    await tabTo(page, 'a.cart-checkout');
    await Promise.all([page.waitForURL(/\/checkout$/), page.keyboard.press('Enter')]);
    const fields = [
      ['email', 'buyer@example.com'],
      ['name', 'Ada Buyer'],
      ['addressLine1', '1 Porch Lane'],
      ['city', 'Portland'],
      ['postalCode', '97201'],
      ['country', 'US'],
    ];
    for (const [id, value] of fields) {
      await tabTo(page, `#${id}`);
      await page.keyboard.type(value);
    }
    await tabTo(page, 'button[type="submit"]');
    await Promise.all([page.waitForURL(/\/commerce\/orders\//), page.keyboard.press('Enter')]);
    assert.equal((await page.locator('h1').textContent()).trim(), 'Thank you for your order');
    assert.match(await page.locator('[role="status"]').textContent(), /A receipt goes to buyer@example\.com\./);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the cart page shows a subscription with its plan terms, axe clean', async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${env.base}/shop/coffee-subscription`);
    await page.locator('[data-island="add-to-cart"][data-island-state="mounted"]').waitFor();
    await page.locator('.product-details button.add-to-cart').click();
    await page.locator('.add-to-cart-form [role="status"]', { hasText: 'to your cart' }).waitFor();
    // The server's cart first (no JavaScript needed), then the island's redraw.
    const terms = (root) => [root.locator('.plan-price').textContent(), root.locator('.renewal').textContent()];
    const plain = await context.newPage();
    await plain.route('**/*.js', (route) => route.abort());
    await plain.goto(`${env.base}/cart`);
    const plainRow = plain.locator('#cart-root .cart-entries tbody tr');
    assert.deepEqual(await Promise.all(terms(plainRow.locator('th'))), ['$15.00 every month', 'Renews monthly until cancelled']);
    await plain.close();
    await page.goto(`${env.base}/cart`);
    await page.locator('[data-island="cart"][data-island-state="mounted"] #cart-root:not([aria-busy])').waitFor();
    const row = page.locator('#cart-root .cart-entries tbody tr');
    await row.first().waitFor();
    assert.deepEqual(await Promise.all(terms(row.locator('th'))), ['$15.00 every month', 'Renews monthly until cancelled']);
    assert.deepEqual(await axe(page, '#cart-root'), [], 'axe in the cart');
  } finally {
    await context.close();
  }
});

test('a campaign landing on a product page sends the Track pixel, then the product view and add-to-cart pixel events', async () => {
  // The demo site's cookie policy is restrictive: the visitor has accepted its banner.
  const context = await env.browser.newContext();
  await context.addCookies([
    { name: 'ss_cookieAllowed', value: 'true', url: env.base },
    { name: 'ss_cookieBannerVersion', value: '2', url: env.base },
  ]);
  const page = await context.newPage();
  const events = [];
  const tracks = [];
  page.on('response', (res) => {
    const url = new URL(res.url());
    const req = res.request();
    if (url.pathname === '/api/events/RecordEvent') {
      events.push([new URLSearchParams(req.postData() ?? '').get('event'), res.status()]);
    }
    if (url.pathname === '/api/track/Track') tracks.push([req.resourceType(), Object.fromEntries(url.searchParams), res.status()]);
  });
  try {
    await page.goto(`${env.base}/shop/brewing-guide?source=newsletter&campaign=spring`);
    await page.locator('[data-island="add-to-cart"][data-island-state="mounted"]').waitFor();
    await eventually(() => events.some(([e]) => e === 'view-product-page'), () => `no product view event: ${JSON.stringify(events)}${serverLog()}`);
    // The pixel is an image and the event a post: their answers may come back in either order.
    await eventually(() => tracks.length > 0, () => `no Track pixel: ${JSON.stringify(tracks)}${serverLog()}`);
    const [type, params, status] = tracks[0];
    assert.equal(type, 'image');
    assert.equal(status, 200);
    assert.equal(params.source, 'newsletter');
    assert.equal(params.campaign, 'spring');
    assert.equal(params.landing, '/shop/brewing-guide?source=newsletter&campaign=spring');
    assert.ok(!events.some(([e]) => e === 'add-to-cart'), 'no add-to-cart before the add');
    await page.locator('.add-to-cart-form button.add-to-cart').click();
    await page.locator('.add-to-cart-form [role="status"]', { hasText: 'to your cart' }).waitFor();
    await eventually(() => events.some(([e]) => e === 'add-to-cart'), () => `no add-to-cart event: ${JSON.stringify(events)}${serverLog()}`);
    // The server took both (204: recorded), and the landing sent its pixel once.
    assert.deepEqual(events, [
      ['view-product-page', 204],
      ['add-to-cart', 204],
    ]);
    assert.equal(tracks.length, 1, JSON.stringify(tracks));
  } finally {
    await context.close();
  }
});
