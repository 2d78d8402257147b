// Browser end-to-end test of the configuration dashboard's live panels: starts the `veranda`
// binary named by VERANDA_BIN (after creating an owner account in its fresh data dir) with
// the demo site; the owner signs in and opens `/config/` in Debian's Chromium, then
// - a `PUT /api/site-header-footer` made with the owner's crumb shows in the edits panel
//   as the server pushes it, without a reload;
// - an error thrown on a demo page in another tab shows in the errors panel,
//   and a second one from another page load raises its group's count to 2, which its
//   24-hour sparkline and the errors-per-hour chart show too;
// - new items are highlighted only without reduced motion;
// - a page view on a demo page raises today's page views in the visitors panel, and shows in the
//   traffic chart's table and the top pages once the 30-day range is picked;
// - an order placed through checkout while the dashboard is open is pushed to the orders
//   panel on the edits stream (the panel's own poll is 2 min apart while the stream is live);
// - the owner marks an unpaid order paid and cancels another with the keyboard, confirming
//   the cancellation in a popup that Escape closes first; the new order's time reads in the
//   spec's relative wording with the full date in a tooltip;
// - a panel whose read never reaches the server says 'Unable to load. Try again.' and 'Network
//   error', axe finds nothing, and its Try again button reads it once the network is back;
// - axe-core finds nothing on `/config/` with the traffic and web-vitals charts drawn, at 1400 px
//   (where the web vitals table fits its panel) and at 375 px wide, where nothing scrolls sideways.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test dashboard.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`, or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, fetchAs, quietContext, useServer } from './support.mjs';

const OWNER = { email: 'owner@example.com', password: 'porch-swing-lantern-42' };
const MESSAGE = 'dashboard saw the porch light flicker';

const env = useServer({ name: 'dashboard', owner: OWNER, signedIn: true });
const { serverLog } = env;

/** A context signed in as the owner, with `/config/` open and both streams live. */
async function openDashboard(options = {}) {
  const context = await quietContext(env, options, { cookies: env.cookies });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(`${env.base}/config/`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, 'GET /config/');
  await page.getByRole('heading', { level: 1, name: 'Configuration' }).waitFor({ timeout: 10_000 });
  for (const name of ['Edits', 'Errors']) {
    const status = page.getByRole('region', { name }).locator('[data-status="live"]');
    await status.waitFor({ timeout: 10_000 }).catch(async () => {
      assert.fail(`the ${name} stream did not go live: ${await page.getByRole('region', { name }).innerText()}${serverLog()}`);
    });
  }
  return { context, page, errors };
}

test('an edit made through the API shows in the edits panel, pushed without a reload', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openDashboard();
  const edits = page.getByRole('region', { name: 'Edits' });
  await edits.getByText('No edits yet.').waitFor();
  const navigations = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });

  const res = await fetchAs(env, 'PUT', '/api/site-header-footer', { header: 'Open on the porch', footer: 'See you at dusk' });
  assert.equal(res.status, 200, `PUT /api/site-header-footer: ${await res.text()}`);
  // Bounds only so a failure ends; latency belongs in a benchmark, not a test.
  const item = edits.getByRole('listitem').filter({ hasText: 'UserSavesSiteHeaderFooter' });
  await item.waitFor({ timeout: 15_000 }).catch(() => assert.fail(`no edit shown: ${serverLog()}`));
  const text = await item.innerText();
  assert.match(text, /save site-header-footer/, text);
  assert.match(text, /just now/, text);
  assert.deepEqual(navigations, [], 'the dashboard did not reload');
  assert.deepEqual(errors, []);
  await context.close();
});

test('an error thrown on a demo page shows in the errors panel, grouped with its count', { timeout: 60_000 }, async () => {
  const { context: dashboard, page } = await openDashboard();
  const visitor = await quietContext(env);
  // The demo site's restrictive cookie policy sends no telemetry before consent.
  await visitor.addCookies([{ name: 'ss_cookieAllowed', value: 'true', url: env.base }]);

  /** Opens `/` in a new tab, throws the error there, and waits until the server took it. */
  async function throwOnDemoPage() {
    const tab = await visitor.newPage();
    await tab.goto(`${env.base}/`, { waitUntil: 'load' });
    const sent = tab.waitForResponse((r) => new URL(r.url()).pathname === '/api/events/RecordJavascriptErrors', { timeout: 10_000 });
    await tab.evaluate((message) => setTimeout(() => { throw new Error(message); }), MESSAGE);
    const answer = await sent;
    assert.equal(answer.status(), 202, `RecordJavascriptErrors: ${await answer.text()}`);
    await tab.close();
  }

  const errorsPanel = page.getByRole('region', { name: 'Errors' });
  const group = errorsPanel.getByRole('listitem').filter({ hasText: MESSAGE });
  await throwOnDemoPage();
  await group.waitFor({ timeout: 15_000 }).catch(() => assert.fail(`no error group shown${serverLog()}`));
  assert.equal(await group.locator('[data-count]').innerText(), '1');

  await throwOnDemoPage();
  await page.waitForFunction(
    (message) => [...document.querySelectorAll('[data-fingerprint]')].some((li) => li.textContent.includes(message) && li.querySelector('[data-count]')?.textContent === '2'),
    MESSAGE,
    { timeout: 15_000 },
  ).catch(() => assert.fail(`the group's count did not reach 2${serverLog()}`));
  assert.equal(await group.count(), 1, 'one group for both errors');
  // The group's sparkline and the errors-per-hour chart are read again soon after a new error.
  const sparkline = group.getByRole('img', { name: /^2 in the last 24 hours/ });
  await sparkline.waitFor({ timeout: 15_000 }).catch(() => assert.fail(`the group's sparkline does not count 2${serverLog()}`));
  await sparkline.locator('canvas').waitFor({ timeout: 10_000 });
  assert.match(await errorsPanel.locator('figure [role="img"]').getAttribute('aria-label'), /^Last 24 hours: \d+ errors; busiest hour /);

  // The stack is behind a disclosure that the keyboard opens.
  const summary = group.getByText('Stack', { exact: true });
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (message) => [...document.querySelectorAll('[data-fingerprint]')].some((li) => li.textContent.includes(message) && li.querySelector('details')?.open && /Error/.test(li.querySelector('pre')?.textContent ?? '')),
    MESSAGE,
    { timeout: 15_000 },
  );
  await visitor.close();
  await dashboard.close();
});

// Runs after the error test, so the errors panel lists a group.
test('new items are highlighted unless reduced motion is asked for', { timeout: 60_000 }, async () => {
  const { context, page } = await openDashboard({ reducedMotion: 'no-preference' });
  const item = page.locator('.feed__item').first();
  await item.waitFor({ timeout: 10_000 });
  assert.equal(await item.evaluate((li) => getComputedStyle(li).animationName), 'dashboard-arrive');
  await context.close();
});

// Runs after the error test, so the errors panel has a group (and a stack) to reach.
test('the keyboard reaches the preview, every stack and every CSV export', { timeout: 60_000 }, async () => {
  const { context, page } = await openDashboard();
  await page.getByRole('link', { name: /as CSV/ }).first().waitFor({ timeout: 10_000 });
  const reached = [];
  // Tab walks through the preview's own links too (the frame keeps focus meanwhile).
  for (let i = 0; i < 200; i += 1) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el !== document.body ? `${el.tagName.toLowerCase()}:${(el.getAttribute('title') ?? el.textContent ?? '').trim().slice(0, 60)}` : '';
    });
    if (label && !reached.includes(label)) reached.push(label);
    if (label === 'a:Export Porch letters as CSV') break;
  }
  assert.ok(reached.includes('iframe:Site preview'), reached.join('\n'));
  assert.ok(reached.some((l) => l === 'summary:Stack'), reached.join('\n'));
  assert.deepEqual(reached.filter((l) => /as CSV$/.test(l)), ['a:Export Send us a message as CSV', 'a:Export Porch letters as CSV']);
  await context.close();
});

test('a page view on a demo page shows in the visitors panel', { timeout: 60_000 }, async () => {
  const { context: dashboard, page } = await openDashboard();
  const today = page.getByRole('region', { name: 'Visitors' }).locator('[data-figure="today"]');
  await today.waitFor({ timeout: 10_000 });
  const before = Number(await today.innerText());
  const visitor = await quietContext(env);
  await visitor.addCookies([{ name: 'ss_cookieAllowed', value: 'true', url: env.base }]);
  const tab = await visitor.newPage();
  const hit = tab.waitForResponse((r) => new URL(r.url()).pathname === '/api/census/RecordHit', { timeout: 10_000 });
  await tab.goto(`${env.base}/`, { waitUntil: 'load' });
  assert.equal((await hit).status(), 204);
  // The panel reads the figures again every 10 s.
  await page.waitForFunction((n) => Number(document.querySelector('[data-figure="today"]')?.textContent) > n, before, { timeout: 25_000 });
  // The chart and the top lists are read again when a range is picked.
  const traffic = page.getByRole('region', { name: 'Traffic' });
  await traffic.locator('canvas').first().waitFor({ timeout: 10_000 });
  await traffic.getByRole('button', { name: 'Last 30 days' }).click();
  const lastDay = traffic.locator('table tbody tr').last().locator('td').first();
  await traffic.locator('table tbody tr').nth(29).waitFor({ state: 'attached', timeout: 10_000 });
  assert.ok(Number(await lastDay.textContent()) >= 1, 'today has a page view in the 30-day series');
  assert.match(await traffic.getByRole('img').getAttribute('aria-label'), /^Last 30 days: \d+ page views; busiest day /);
  const top = page.getByRole('region', { name: 'Top pages and referrers' });
  await top.getByRole('button', { name: 'Last 30 days' }).click();
  await top.getByRole('region', { name: 'Top pages' }).getByRole('rowheader', { name: '/', exact: true }).waitFor({ timeout: 10_000 });
  await visitor.close();
  await dashboard.close();
});

/** The value of cookie `name` set by `res`. */
function setCookie(res, name) {
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

/** Places an order for `quantity` mugs as a visitor would (cart API, then the checkout form); gives its id. */
async function placeOrder(email, quantity) {
  const crumb = setCookie(await fetch(`${env.base}/`), 'crumb');
  assert.ok(crumb, 'GET / sets a crumb');
  const added = await fetch(`${env.base}/api/commerce/cart/entries`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `crumb=${crumb}`, 'X-CSRF-Token': decodeURIComponent(crumb) },
    body: JSON.stringify({ sku: 'VER-HB-12OZ', quantity }),
  });
  assert.equal(added.status, 200, `add to cart: ${await added.text()}`);
  const cart = setCookie(added, 'cart');
  const form = new URLSearchParams({
    crumb,
    email,
    name: 'Grace Hopper',
    addressLine1: '12 Linden Street',
    city: 'Riverton',
    region: 'NY',
    postalCode: '10001',
    country: 'US',
  });
  const placed = await fetch(`${env.base}/checkout`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: `crumb=${crumb}; cart=${cart}` },
    body: form,
  });
  assert.equal(placed.status, 303, `checkout: ${await placed.text()}`);
  return placed.headers.get('location').split('?')[0].replace('/commerce/orders/', '');
}

test('an order placed while the dashboard is open shows in the orders panel', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openDashboard();
  const orders = page.getByRole('region', { name: 'Orders', exact: true });
  await orders.getByText(/No orders yet\.|newest orders/).first().waitFor({ timeout: 10_000 });
  await orders.locator('#orders-status[data-status="live"]').waitFor({ timeout: 20_000 });
  const id = await placeOrder('grace@example.com', 2);
  // While the stream is live the panel polls every 2 min: the order arrives as an event,
  // then the list is read again for the customer's email. The bound only ends a failure.
  const row = orders.locator(`tr[data-order-id="${id}"]`);
  await row.getByText('grace@example.com').waitFor({ timeout: 40_000 }).catch(async () => assert.fail(`order ${id} not pushed: ${await orders.innerText()}${serverLog()}`));
  const cells = await row.locator('th, td').allInnerTexts();
  assert.deepEqual(cells.slice(2, 6), ['grace@example.com', '2', '$40.84', 'Order'], cells.join(' | '));
  // Spec 001 §4: an instant past (or still to come) beyond a minute reads as a formatted date.
  assert.match(cells[6], /^Unpaid · hold ends [A-Z][a-z]{2} \d{1,2}, \d{4}/, cells.join(' | '));
  assert.match(cells[1], /^(just now|about \d+ seconds ago)$/, cells.join(' | '));
  assert.equal(cells[0], id.slice(0, 8));
  assert.equal(await orders.locator('caption').innerText(), 'The newest orders, newest first (at most 20)');
  assert.equal(await orders.getByRole('columnheader').count(), 7);
  // The refresh button is reached and used from the keyboard.
  const button = orders.getByRole('button', { name: 'Refresh orders' });
  await button.focus();
  const reread = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/commerce/orders', { timeout: 10_000 });
  await page.keyboard.press('Enter');
  assert.equal((await reread).status(), 200);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the owner marks an unpaid order paid and cancels another from the keyboard', { timeout: 90_000 }, async () => {
  const { context, page, errors } = await openDashboard();
  const orders = page.getByRole('region', { name: 'Orders', exact: true });
  const paid = await placeOrder('ada@example.com', 1);
  const cancelled = await placeOrder('alan@example.com', 1);
  await orders.getByRole('button', { name: 'Refresh orders' }).click();
  for (const [id, action, words, status] of [
    [paid, 'Mark paid', 'paid', 'Paid'],
    [cancelled, 'Cancel', 'cancelled', 'Cancelled'],
  ]) {
    const row = orders.locator(`tr[data-order-id="${id}"]`);
    const button = row.getByRole('button', { name: `${action} order ${id.slice(0, 8)}` });
    await button.waitFor({ timeout: 20_000 }).catch(async () => assert.fail(`no ${action} for ${id}: ${await orders.innerText()}${serverLog()}`));
    if (action === 'Cancel') {
      // Placed moments ago: the spec's relative wording (001 §4), the full date in a tooltip.
      const placed = row.locator('td time').first();
      assert.match(await placed.innerText(), /^(just now|about \d+ seconds ago)$/);
      await placed.hover();
      const tip = page.locator(`#${await placed.getAttribute('aria-describedby')}`);
      await tip.waitFor({ state: 'visible', timeout: 5_000 });
      assert.match(await tip.innerText(), /\d{4}/);
      await page.mouse.move(0, 0);
      await tip.waitFor({ state: 'hidden', timeout: 5_000 });
    }
    await button.focus();
    const settled = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/commerce/orders/${id}/status`, { timeout: 10_000 });
    await page.keyboard.press('Enter');
    if (action === 'Cancel') {
      // Cancelling is confirmed in a popup: Escape keeps the order and gives the focus back.
      const popup = page.getByRole('dialog', { name: 'Cancel this order?' });
      await popup.waitFor({ timeout: 5_000 });
      assert.deepEqual(await axe(page), [], 'axe with the confirmation popup open');
      await page.keyboard.press('Escape');
      await popup.waitFor({ state: 'detached', timeout: 5_000 });
      assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus back on Cancel');
      assert.equal(await row.locator('.order-status').innerText(), 'Unpaid');
      await page.keyboard.press('Enter');
      await popup.waitFor({ timeout: 5_000 });
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel order');
      await page.keyboard.press('Enter');
    }
    const answer = await settled;
    assert.equal(answer.status(), 200, `settling ${id} ${words}`);
    await row.locator(`.order-status[data-status="${words}"]`).waitFor({ timeout: 10_000 });
    assert.equal(await row.locator('.order-status').innerText(), status);
    assert.equal(await row.getByRole('button').count(), 0, 'a settled order has no buttons');
    // Focus lands on the new status, not on the page's start.
    await page.waitForFunction((orderId) => document.activeElement?.closest('tr')?.getAttribute('data-order-id') === orderId, id, { timeout: 5_000 });
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('a panel that cannot reach the server says so and reads again on Try again', { timeout: 60_000 }, async () => {
  const context = await quietContext(env, {}, { cookies: env.cookies });
  const cut = (route) => route.abort('internetdisconnected');
  await context.route('**/api/stats/top*', cut);
  const page = await context.newPage();
  await page.goto(`${env.base}/config/`, { waitUntil: 'load' });
  const top = page.getByRole('region', { name: 'Top pages and referrers' });
  const alert = top.getByRole('alert');
  await alert.waitFor({ timeout: 15_000 });
  assert.equal(await alert.locator('p').innerText(), 'Unable to load. Try again. Network error');
  assert.deepEqual(await axe(page), [], 'axe with the load error shown');
  await context.unroute('**/api/stats/top*', cut);
  await top.getByRole('button', { name: 'Try again' }).click();
  await top.getByRole('table').first().waitFor({ timeout: 10_000 });
  assert.equal(await top.getByRole('alert').count(), 0);
  await context.close();
});

test('axe finds nothing on /config/ with its charts, wide and at 375 px', { timeout: 90_000 }, async () => {
  // A page load's vitals, so the vitals table has a row to fit.
  const vitals = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'].map((name, i) => ({ pageLoadId: 'e2e-load', name, value: [2400, 180, 0.12, 900, 300][i], pagePath: '/' }));
  const sent = await fetch(`${env.base}/api/1/performance/records`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(vitals) });
  assert.equal(sent.status, 202, 'performance records');
  for (let tries = 0; tries < 50; tries += 1) {
    const res = await fetchAs(env, 'GET', '/api/stats/vitals');
    if ((await res.json()).pages?.length) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const viewport of [{ width: 1400, height: 900 }, { width: 375, height: 800 }]) {
    const { context, page } = await openDashboard({ viewport, reducedMotion: 'reduce' });
    await page.getByRole('region', { name: 'Traffic' }).locator('canvas').first().waitFor({ timeout: 10_000 });
    const vitalsTable = page.getByRole('region', { name: 'Web vitals per page' });
    await vitalsTable.locator('tbody tr').first().waitFor({ timeout: 10_000 });
    const overTime = page.locator('.vitals-over-time');
    await overTime.locator('canvas').nth(1).waitFor({ timeout: 10_000 });
    // The demo pages opened by other tests report vitals in this same hour, so the latest p75s are the server's.
    const series = await (await fetchAs(env, 'GET', '/api/stats/vitals/series?range=24h')).json();
    const latest = ['lcp', 'inp', 'fcp', 'ttfb'].map((v) => {
      const measured = series.points.map((p) => p[v]?.p75).filter((x) => x !== undefined && x !== null);
      const last = measured[measured.length - 1];
      const shown = last === undefined ? 'not measured' : last >= 1000 ? `${(last / 1000).toFixed(1)} s` : `${Math.round(last)} ms`;
      return `${v.toUpperCase()} ${shown}`;
    });
    assert.ok(!latest[0].endsWith('not measured'), `the LCP just sent is in the series (${latest[0]})`);
    assert.equal(await overTime.getByRole('img').first().getAttribute('aria-label'), `Last 24 hours, p75 per hour; latest ${latest.join(', ')}.`);
    if (viewport.width === 1400) {
      const cut = await vitalsTable.evaluate((el) => el.scrollWidth - el.clientWidth);
      assert.ok(cut <= 0, `the web vitals table fits its panel at 1400 px (${cut} px cut off)`);
    }
    await page.getByRole('region', { name: 'Form submissions' }).getByRole('link', { name: /as CSV/ }).first().waitFor({ timeout: 10_000 });
    // Runs after the orders test, so the orders table is there too.
    await page.getByRole('region', { name: 'Orders', exact: true }).locator('tbody tr').first().waitFor({ timeout: 10_000 });
    assert.deepEqual(await axe(page), [], `axe at ${viewport.width} px`);
    // New items are highlighted only for those who have not asked for reduced motion.
    const animation = await page.locator('.feed__item').first().evaluate((li) => getComputedStyle(li).animationName);
    assert.equal(animation, 'none', 'no animation with reduced motion');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5).slice(0, 8).map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`).join(', '));
    assert.ok(overflow <= 0, `no sideways scrolling at ${viewport.width} px (overflow ${overflow} px: ${wide})`);
    await context.close();
  }
});
