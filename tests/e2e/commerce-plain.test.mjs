// Browser end-to-end test of the product quick view and of the shop without JavaScript.
// Starts the binary named by VERANDA_BIN with the demo site in a fresh data dir; in Debian's
// Chromium:
// - on the shop's product grid, with the keyboard alone, a visitor opens the house blend's
//   quick view: focus moves into the modal dialog, Tab stays inside, axe-core finds nothing
//   in it, the `RecordQuickView` census call is sent (cookies accepted), the 2 lb bag is added
//   to the cart from the dialog and the header badge shows it; Escape closes it and focus is
//   back on its 'Quick View' button;
// - with JavaScript disabled, a visitor adds two bags from the product page's plain form and
//   lands on the plain cart page, whose status notice says 'Added to cart.' with a link to
//   the cart and whose 'Continue shopping' goes back to the product; the site's cart page
//   `/cart` shows the same cart in its cart root and changes a quantity there; then on the
//   plain cart page the visitor changes the quantity, chooses a shipping option and removes
//   the entry, every change a form post.
// - the support page's donation button, reached with Tab, opens the donation checkout on Space
//   and on Enter, with and without JavaScript (spec 000 §10: it activates on Enter or Space).
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test commerce-plain.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`, or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, eventually, quietContext, useServer } from './support.mjs';

const env = useServer({ name: 'commerce-plain' });
const { serverLog } = env;

/**
 * A context with the cookie banner answered, whose requests leaving this machine get an
 * empty answer; it lists the census calls' paths.
 */
async function newContext(options = {}) {
  const census = [];
  const local = (url) => {
    if (url.pathname.startsWith('/api/census/')) census.push(url.pathname);
  };
  const context = await quietContext(env, options, { local, consent: true });
  return { context, census };
}

/** Presses Tab (at most 120 times) until the focused element matches `selector` (and holds `text`). */
async function tabTo(page, selector, text = '') {
  const focused = ([s, t]) => (document.activeElement?.matches(s) && document.activeElement.textContent.includes(t)) ?? false;
  for (let i = 0; i < 120; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(focused, [selector, text])) return;
  }
  throw new Error(`Tab never reached ${selector}${serverLog()}`);
}

const focusedMatches = (page, selector) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);

test('the quick view opens, traps focus, records itself, adds to the cart and closes by keyboard', { timeout: 90_000 }, async () => {
  const { context, census } = await newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  try {
    const response = await page.goto(`${env.base}/shop`);
    assert.equal(response?.status(), 200, `GET /shop${serverLog()}`);
    const card = page.locator('article.item-card', { hasText: 'House blend coffee beans' });
    const opener = card.locator('button.quick-view__open');
    await card.scrollIntoViewIfNeeded();
    await opener.waitFor({ state: 'visible' });
    // The mug is sold out, the guide digital: every product of the grid gets its button.
    assert.ok((await page.locator('button.quick-view__open').count()) >= 5);

    await tabTo(page, 'button.quick-view__open', 'House blend coffee beans');
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog.quick-view[open]');
    await dialog.waitFor({ state: 'visible' });
    assert.equal(await dialog.locator('h2').textContent(), 'House blend coffee beans');
    assert.equal(await focusedMatches(page, 'dialog.quick-view .quick-view__close'), true, 'focus moved into the dialog');
    assert.equal((await dialog.locator('.quick-view__price').textContent()).trim(), 'from $16.00');
    assert.equal(await dialog.locator('img').getAttribute('src'), '/images/beans.png');
    await eventually(() => census.some((p) => p === '/api/census/RecordQuickView/6d0e4b8336d2071273f617b5'), 'no RecordQuickView call');

    // Tab never leaves the dialog.
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog.quick-view'))), true, `tab ${i}`);
    }
    assert.deepEqual(await axe(page, 'dialog.quick-view'), [], 'axe in the quick view');

    // The 2 lb bag, from the dialog, by keyboard.
    await tabTo(page, 'dialog.quick-view select');
    await page.keyboard.press('ArrowDown');
    assert.equal(await dialog.locator('select').inputValue(), '2 lb');
    await tabTo(page, 'dialog.quick-view button.add-to-cart');
    await page.keyboard.press('Enter');
    await dialog.locator('[role="status"]', { hasText: 'Added 1 × House blend coffee beans to your cart.' }).waitFor();
    await page.locator('.site-header .cart-badge .cart-badge__count', { hasText: '1' }).waitFor({ state: 'attached' });

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.matches('button.quick-view__open') && document.activeElement.textContent),
      'Quick View: House blend coffee beans',
      'focus is back on the Quick View button',
    );
    assert.equal(await page.url(), `${env.base}/shop`, 'Escape did not leave the page');
    const cart = await page.evaluate(() => fetch('/api/commerce/cart').then((r) => r.json()));
    assert.equal(cart.totalQuantity, 1);
    assert.equal(cart.entries[0].unitPriceCents, 3800);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('without JavaScript the product page adds to the cart and the cart page changes it', { timeout: 90_000 }, async () => {
  const { context } = await newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(`${env.base}/shop/house-blend`);
    const form = page.locator('.product-details form[action="/commerce/cart/add"]');
    await form.locator('select[name="sku"]').selectOption({ label: 'Size: 2 lb — $38.00' });
    await form.locator('input[name="quantity"]').fill('2');
    const added = `${env.base}/commerce/cart?added=1&from=%2Fshop%2Fhouse-blend`;
    await Promise.all([page.waitForURL(added), form.locator('button.add-to-cart').click()]);
    const notice = page.getByRole('status');
    assert.equal((await notice.textContent()).trim(), 'Added to cart. View your cart');
    assert.equal(await notice.getByRole('link', { name: 'View your cart' }).getAttribute('href'), '/commerce/cart');
    assert.equal(await page.locator('.cart-entries tbody tr').count(), 1);
    await Promise.all([page.waitForURL(`${env.base}/shop/house-blend`), page.getByRole('link', { name: 'Continue shopping' }).click()]);
    assert.equal((await page.locator('h1').first().textContent()).trim(), 'House blend coffee beans');

    // The site's cart page shows the cart in its cart root and changes it there.
    await page.goto(`${env.base}/cart`);
    const rootRows = page.locator('#cart-root .cart-entries tbody tr');
    assert.equal(await rootRows.count(), 1);
    assert.match(await rootRows.first().textContent(), /House blend coffee beans/);
    assert.equal(await page.locator('#cart-root .cart-totals dd strong').textContent(), '$82.00');
    assert.equal(await page.getByRole('link', { name: 'View and change your cart' }).count(), 0);
    await page.getByLabel('Quantity of House blend coffee beans', { exact: true }).fill('1');
    await Promise.all([page.waitForURL(`${env.base}/cart`), page.getByRole('button', { name: 'Update quantity of House blend coffee beans' }).click()]);
    assert.equal(await page.getByLabel('Quantity of House blend coffee beans', { exact: true }).inputValue(), '1');
    assert.equal(await page.locator('#cart-root .cart-totals dd strong').textContent(), '$44.00');
    await page.getByLabel('Quantity of House blend coffee beans', { exact: true }).fill('2');
    await Promise.all([page.waitForURL(`${env.base}/cart`), page.getByRole('button', { name: 'Update quantity of House blend coffee beans' }).click()]);

    // The plain cart page.
    await page.goto(`${env.base}/commerce/cart`);
    const rows = page.locator('.cart-entries tbody tr');
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().textContent(), /House blend coffee beans/);
    const grand = () => page.locator('.cart-totals dd strong').textContent();
    // Two bags of $38 and the first shipping option, $6.
    assert.equal(await grand(), '$82.00');

    await page.getByLabel('Quantity of House blend coffee beans', { exact: true }).fill('3');
    await Promise.all([page.waitForURL(`${env.base}/commerce/cart`), page.getByRole('button', { name: 'Update quantity of House blend coffee beans' }).click()]);
    assert.equal(await page.getByLabel('Quantity of House blend coffee beans', { exact: true }).inputValue(), '3');
    assert.equal(await grand(), '$120.00');

    await page.getByLabel(/Express shipping/).check();
    await Promise.all([page.waitForURL(`${env.base}/commerce/cart`), page.getByRole('button', { name: 'Choose shipping' }).click()]);
    assert.equal(await page.getByLabel(/Express shipping/).isChecked(), true);
    assert.equal(await grand(), '$129.00');

    await Promise.all([page.waitForURL(`${env.base}/commerce/cart`), page.getByRole('button', { name: 'Remove House blend coffee beans' }).click()]);
    assert.equal(await page.locator('.cart__empty').textContent(), 'Your cart is empty.');

    // A bad quantity: a 4xx page with the reason, the cart unchanged.
    await page.goto(`${env.base}/shop/brewing-guide`);
    await page.locator('.product-details input[name="quantity"]').evaluate((el) => {
      el.removeAttribute('max');
      el.value = '5000';
    });
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/commerce/cart/add')),
      page.locator('.product-details button.add-to-cart').click(),
    ]);
    assert.equal(answer.status(), 400);
    await page.getByRole('alert').filter({ hasText: 'Quantities must be whole numbers from 1 to 1000.' }).waitFor();
  } finally {
    await context.close();
  }
});

test('the donation button opens the donation checkout on Space and on Enter, with or without JavaScript', { timeout: 90_000 }, async () => {
  for (const javaScriptEnabled of [true, false]) {
    for (const key of ['Space', 'Enter']) {
      const { context } = await newContext({ javaScriptEnabled });
      const page = await context.newPage();
      try {
        await page.goto(`${env.base}/support`);
        await tabTo(page, 'form.donation-button button');
        await Promise.all([page.waitForURL(/\/checkout\/donate\?donatePageId=[0-9a-f]{24}$/), page.keyboard.press(key)]);
        assert.equal(await page.locator('h1').count() > 0, true, `the donation checkout renders${serverLog()}`);
      } finally {
        await context.close();
      }
    }
  }
});
