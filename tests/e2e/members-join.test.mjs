// Browser end-to-end test of joining the demo's member area (/support, "Become a porch
// member": Monthly $9.00 billed monthly, Yearly $90.00 billed yearly). The binary named by
// VERANDA_BIN serves the demo site; in Debian's Chromium a visitor joins:
// - without JavaScript: the yearly join button submits the area's form to the membership
//   checkout, and the placed order is a subscription renewing yearly;
// - with JavaScript, with the keyboard alone: the pricing toggle shows the monthly option, its
//   join button is reached with Tab and pressed with Space, and the order renews monthly;
// - joining makes an account and signs the buyer in: the member page (/members) stays closed
//   until the owner marks the order paid, then opens in the same browser.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test members-join.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fetchAs, problemPage, useServer } from './support.mjs';

const AREA = '151ddf95961304586d8acd7a';
const CONFIRMED = 'Thank you for joining';
/** What the demo's member page shows members, and what it shows a signed-in account that is not one. */
const MEMBER_CONTENT = 'cardamom buns';
const NOT_A_MEMBER = 'Your account does not have access to this member area.';

const env = useServer({ name: 'members-join', owner: { email: 'owner@example.com', password: 'owner porch swing' }, signedIn: true });
const { serverLog } = env;

/** A page where only this machine answers; page and console errors are kept. */
const newPage = (options = {}) => problemPage(env, options);

/** Fills the membership checkout's form and places the order; checks the confirmation. */
async function checkOut(page, { email, name, renews, total }) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill('porch swing 2026');
  await Promise.all([page.waitForURL(/\/commerce\/orders\//, { timeout: 10_000 }), page.getByRole('button', { name: 'Join' }).click()]);
  const main = (await page.locator('main').textContent()) ?? '';
  assert.equal(await page.locator('body').getAttribute('data-page-type'), '208', 'a membership is confirmed (spec 000 §8: 208)');
  assert.ok(main.includes(CONFIRMED), main);
  assert.ok(main.includes(renews), `${renews}: ${main}`);
  assert.equal(await page.locator('.grand-total').textContent(), total);
}

test('a visitor without JavaScript joins for a year', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage({ javaScriptEnabled: false });
  const response = await page.goto(`${env.base}/support`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200);
  const join = page.getByRole('button', { name: 'Join for a year' });
  assert.equal(await join.isDisabled(), false);
  await Promise.all([page.waitForURL(/\/checkout\/join\?/, { timeout: 10_000 }), join.click()]);
  const url = new URL(page.url());
  assert.deepEqual([url.searchParams.get('memberAreaId'), url.searchParams.get('pricingOption')], [AREA, '1']);
  assert.ok((await page.locator('main').textContent()).includes('Renews yearly until cancelled'));
  await checkOut(page, { email: 'ada@example.com', name: 'Ada', renews: 'Renews yearly until cancelled', total: '$90.00' });
  const order = new URL(page.url()).pathname.split('/').pop();
  await page.goto(`${env.base}/members`, { waitUntil: 'load' });
  assert.ok((await page.locator('main').textContent()).includes(NOT_A_MEMBER), 'signed in, not a member before paying');
  const settled = await fetchAs(env, 'POST', `/api/commerce/orders/${order}/status`, { status: 'paid' });
  assert.equal(settled.status, 200, await settled.text());
  await page.reload({ waitUntil: 'load' });
  assert.ok((await page.locator('main').textContent()).includes(MEMBER_CONTENT), 'the member page opens once paid');
  await context.close();
});

test('a visitor with JavaScript joins monthly with the keyboard alone', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await newPage();
  await page.goto(`${env.base}/support`, { waitUntil: 'load' });
  await page.locator('.pricing-toggle').waitFor({ timeout: 15_000 });
  assert.equal(await page.getByRole('button', { name: 'Join for a year' }).isVisible(), false, 'the toggle shows one option');
  for (let i = 0; i < 80; i += 1) {
    if ((await page.evaluate(() => document.activeElement?.textContent)) === 'Join monthly') break;
    await page.keyboard.press('Tab');
  }
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Join monthly', 'Tab reaches the join button');
  await Promise.all([page.waitForURL(/\/checkout\/join\?/, { timeout: 10_000 }), page.keyboard.press('Space')]);
  assert.equal(new URL(page.url()).searchParams.get('pricingOption'), '0');
  await checkOut(page, { email: 'grace@example.com', name: 'Grace', renews: 'Renews monthly until cancelled', total: '$9.00' });
  assert.deepEqual(problems, [], serverLog());
  await context.close();
});
