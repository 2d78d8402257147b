// Browser end-to-end tests of four visitor widgets, against the `veranda` binary named by
// VERANDA_BIN with the demo site, in Debian's Chromium:
// - Announcement bar: once closed, the server leaves it out of the page (no flash): the
//   `ss_announcementBarDismissed` cookie and what the server answers after it.
// - Popup overlay on `/contact`, a page that shows the same newsletter block: the overlay
//   carries its own copy (no id twice, labels on their inputs, axe clean) and submits it.
// - Restaurant booking: the provider's widget script (served here by `page.route`; nothing
//   leaves the machine) loads for visitors who consented, `loading` then `loaded`, or
//   `failed` on error or after 10 s with the booking link still working; nothing loads
//   without consent or for the signed-in owner's preview.
// - Relative times: a blog post date keeps the date the server wrote and shows the full date
//   in a tooltip on hover.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test visitor-widgets.test.mjs
//
// It builds nothing: the binary and the client (`client/dist` or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { eventually, openSettled, quietContext, signUpInOverlay, useServer } from './support.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The site owner the preview test signs in as. */
const OWNER = { email: 'owner@veranda.test', password: 'porch-owner-passphrase-1' };
/** The dismissal cookie. */
const DISMISSED = 'ss_announcementBarDismissed';
/** The demo's newsletter block (on `/contact`, and the popup overlay's form). */
const NEWSLETTER_BLOCK = '75c8afcd1c8273ac164e16ee';
/** The provider scripts of the demo's two booking blocks on `/menu`. */
const OPENTABLE_SCRIPT = 'https://www.opentable.com/widget/reservation/loader?**';
const TOCK_SCRIPT = 'https://www.exploretock.com/tock.js';

const env = useServer({ name: 'visitor-widgets', owner: OWNER });
const { serverLog } = env;

/** A context with the cookie banner answered (`accepted` or not), whose requests leaving this machine get an empty answer. */
const newContext = ({ accepted = false, ...options } = {}) => quietContext(env, options, { consent: accepted });

/** Opens `path` and waits until the page is quiet. */
const open = (context, path) => openSettled(env, context, path);

/** Runs axe in `page`; gives one line per violating node. */
async function axe(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) => r.violations), AXE_TAGS);
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));
}

test('a closed announcement bar is left out of the next pages by the server', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const page = await open(context, '/about');
  const bar = page.getByRole('complementary', { name: 'Announcement' });
  const id = await bar.getAttribute('data-announcement-id');
  assert.match(id, /^[0-9a-f]{16}$/);
  await bar.getByRole('button', { name: 'Close announcement' }).click();
  await bar.waitFor({ state: 'hidden' });

  const cookie = (await context.cookies(env.base)).find((c) => c.name === DISMISSED);
  assert.ok(cookie, 'closing sets the dismissal cookie');
  assert.equal(cookie.value, id);
  assert.equal(cookie.path, '/');
  assert.equal(cookie.sameSite, 'Lax');
  assert.equal(cookie.httpOnly, false);
  const year = 365 * 24 * 60 * 60;
  assert.ok(Math.abs(cookie.expires - (Date.now() / 1000 + year)) < 24 * 60 * 60, `lives a year: ${cookie.expires}`);

  for (const path of ['/menu', '/about', '/contact']) {
    const response = await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
    const html = await response.text();
    assert.ok(!html.includes('class="announcement-bar"'), `${path}: the server still sends the bar`);
    assert.equal(await page.locator('.announcement-bar').count(), 0, `${path}: a bar is in the page`);
  }
  await page.reload({ waitUntil: 'load' });
  assert.equal(await page.locator('.announcement-bar').count(), 0, 'not after a reload either');

  // Another visitor (no cookie) still gets it: nothing was cached for everyone.
  const fresh = await (await fetch(`${env.base}/menu`)).text();
  assert.ok(fresh.includes(`data-announcement-id="${id}"`));

  // Closed before the cookie existed (storage only): hidden on this page, left out on the next.
  await context.clearCookies({ name: DISMISSED });
  await page.goto(`${env.base}/menu`, { waitUntil: 'load' });
  await eventually(() => page.locator('.announcement-bar').evaluate((el) => el.hidden), 'storage did not hide the bar');
  const again = await page.goto(`${env.base}/about`, { waitUntil: 'load' });
  assert.ok(!(await again.text()).includes('class="announcement-bar"'), 'the cookie was written again');
  await context.close();
});

test('the popup overlay on /contact carries its own newsletter form and submits it', { timeout: 90_000 }, async () => {
  const context = await newContext();
  await context.clock.install({ time: Date.now() });
  const page = await open(context, '/contact');
  const pageBlock = page.locator(`#block-${NEWSLETTER_BLOCK}`);
  await pageBlock.scrollIntoViewIfNeeded();
  await eventually(() => pageBlock.getAttribute('data-island-state').then((s) => s === 'mounted'), 'the page newsletter did not mount');
  await context.clock.fastForward(20_000);
  const dialog = page.getByRole('dialog', { name: 'Porch letters' });
  await dialog.waitFor({ timeout: 20_000 });
  const email = dialog.getByRole('textbox', { name: /Email Address/ });
  await email.waitFor({ timeout: 20_000 });
  await eventually(
    () => dialog.locator('.popup-overlay__form').getAttribute('data-island-state').then((s) => s === 'mounted'),
    'the overlay newsletter did not mount',
  );

  const repeated = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[id]')].map((el) => el.id);
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  });
  assert.deepEqual(repeated, [], 'no id twice with the overlay open');
  const tied = await email.evaluate((input) => [...input.labels].every((l) => l.closest('dialog') === input.closest('dialog')) && input.labels.length === 1);
  assert.ok(tied, "the overlay input's label is its own");
  assert.deepEqual(await axe(page), [], 'axe with the overlay open on /contact');

  const body = await signUpInOverlay(page, dialog, email, 'porch.reader@veranda.test');
  assert.equal(body.objectName, NEWSLETTER_BLOCK);
  assert.equal(JSON.parse(body.form).email, 'porch.reader@veranda.test');
  assert.equal(await pageBlock.locator('form').count(), 1, "the page's own form is untouched");
  await context.close();
});

/** Opens `/menu` and scrolls each booking block into view; gives the page and the blocks. */
async function bookingPage(context, { waitQuiet = true } = {}) {
  const page = await context.newPage();
  const response = await page.goto(`${env.base}/menu`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, `GET /menu${serverLog()}`);
  if (waitQuiet) await page.waitForLoadState('networkidle');
  const blocks = page.locator('.block--restaurant-booking');
  assert.equal(await blocks.count(), 2);
  for (let i = 0; i < 2; i += 1) {
    await blocks.nth(i).scrollIntoViewIfNeeded();
    await eventually(() => blocks.nth(i).getAttribute('data-island-state').then((s) => s === 'mounted'), 'a booking block did not mount');
  }
  const byProvider = async (name) => {
    for (let i = 0; i < 2; i += 1) {
      if (JSON.parse(await blocks.nth(i).getAttribute('data-block-json')).provider === name) return blocks.nth(i);
    }
    throw new Error(`no ${name} block`);
  };
  return { page, opentable: await byProvider('opentable'), tock: await byProvider('tock') };
}

const state = (block) => block.getAttribute('data-state');

test('the booking providers\' widget scripts load for a visitor who consented', { timeout: 60_000 }, async () => {
  const context = await newContext({ accepted: true, viewport: { width: 1400, height: 900 } });
  const asked = [];
  /** Answers a provider's script with `body`, noting the address asked. */
  const fakeScript = (body) => (route) => {
    asked.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body });
  };
  await context.route(OPENTABLE_SCRIPT, fakeScript('document.currentScript.parentElement.dataset.fakeProvider = "opentable";'));
  await context.route(
    TOCK_SCRIPT,
    fakeScript('document.getElementById("Tock_widget_container").dataset.fakeProvider = JSON.stringify(window.tock.queue);'),
  );
  const { opentable, tock } = await bookingPage(context);
  await eventually(() => state(opentable).then((s) => s === 'loaded'), 'the OpenTable widget did not load');
  await eventually(() => state(tock).then((s) => s === 'loaded'), 'the Tock widget did not load');
  assert.equal(await opentable.locator('.restaurant-booking__widget').getAttribute('data-fake-provider'), 'opentable', 'the script ran inside the block');
  assert.deepEqual(JSON.parse(await tock.locator('#Tock_widget_container').getAttribute('data-fake-provider')), [['init', 'veranda-supper-club']]);
  const ot = new URL(asked.find((u) => u.includes('opentable')));
  assert.equal(ot.searchParams.get('rid'), '412233');
  assert.ok(['standard', 'wide'].includes(ot.searchParams.get('theme')));
  assert.equal(asked.filter((u) => u === TOCK_SCRIPT).length, 1);
  for (const block of [opentable, tock]) {
    assert.equal(await block.getByRole('link', { name: 'Book a table' }).count(), 1, 'the booking link stays');
  }
  await context.close();
});

test('a booking widget that fails or takes 10 s leaves the booking link working', { timeout: 60_000 }, async () => {
  const context = await newContext({ accepted: true });
  await context.route(OPENTABLE_SCRIPT, (route) => route.abort('connectionrefused'));
  // Tock never answers: the request is held until the page closes.
  await context.route(TOCK_SCRIPT, () => {});
  await context.route('https://www.opentable.com/restref/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Booking page</title><p>Book here.</p>' }),
  );
  await context.clock.install({ time: Date.now() });
  const { page, opentable, tock } = await bookingPage(context, { waitQuiet: false });
  await eventually(() => state(opentable).then((s) => s === 'failed'), 'the OpenTable failure was not noticed');
  assert.equal(await state(tock), 'loading');
  await context.clock.fastForward(9_000);
  assert.equal(await state(tock), 'loading', 'still waiting before 10 s');
  await context.clock.fastForward(1_000);
  await eventually(() => state(tock).then((s) => s === 'failed'), 'not given up after 10 s');
  assert.equal(await tock.getByRole('link', { name: 'Book a table' }).getAttribute('href'), 'https://www.exploretock.com/veranda-supper-club');
  await Promise.all([page.waitForURL(/^https:\/\/www\.opentable\.com\/restref\/client\/\?rid=412233$/), opentable.getByRole('link', { name: 'Book a table' }).click()]);
  assert.equal(await page.title(), 'Booking page');
  await context.close();
});

test('no booking widget script loads without consent, or for the owner\'s preview', { timeout: 90_000 }, async () => {
  const watch = async (context) => {
    const asked = [];
    for (const pattern of [OPENTABLE_SCRIPT, TOCK_SCRIPT]) {
      await context.route(pattern, (route) => {
        asked.push(route.request().url());
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: '' });
      });
    }
    return asked;
  };

  const declined = await newContext({ accepted: false });
  const askedDeclined = await watch(declined);
  const { page, opentable, tock } = await bookingPage(declined);
  await page.waitForTimeout(300);
  assert.deepEqual(askedDeclined, []);
  assert.equal(await state(opentable), null);
  assert.equal(await state(tock), null);
  await declined.close();

  const owner = await newContext({ accepted: true });
  const askedOwner = await watch(owner);
  const login = await owner.newPage();
  await login.goto(`${env.base}/account/login?returnUrl=%2Fmenu%3Fnoredirect`);
  await login.locator('#login-email').fill(OWNER.email);
  await login.locator('#login-password').fill(OWNER.password);
  await Promise.all([login.waitForURL(/\/menu\?noredirect/), login.locator('#login-password').press('Enter')]);
  const blocks = login.locator('.block--restaurant-booking');
  for (let i = 0; i < 2; i += 1) {
    await blocks.nth(i).scrollIntoViewIfNeeded();
    await eventually(() => blocks.nth(i).getAttribute('data-preview-only').then((v) => v === 'true'), 'no preview for the owner');
    assert.equal(await state(blocks.nth(i)), null);
  }
  await login.waitForTimeout(300);
  assert.deepEqual(askedOwner, []);
  await owner.close();
});

test('a blog post date is a relative time: the date the server wrote, the full date in a tooltip on hover', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${env.base}/blog`);
    const date = page.locator('time[data-relative]').first();
    const written = (await date.innerText()).trim();
    // The relative-time chunk gives it a tooltip once it has started.
    await eventually(() => date.getAttribute('aria-describedby'), `no tooltip on the post date${serverLog()}`);
    // Older than a minute: spec 001 §4's formatted date, the one the server wrote.
    assert.equal((await date.innerText()).trim(), written);
    const tip = page.locator(`#${await date.getAttribute('aria-describedby')}`);
    assert.equal(await tip.getAttribute('role'), 'tooltip');
    await date.hover();
    await tip.waitFor({ state: 'visible', timeout: 5_000 });
    assert.match(await tip.innerText(), /\d{4}/);
    await page.mouse.move(0, 0);
    await tip.waitFor({ state: 'hidden', timeout: 5_000 });
  } finally {
    await context.close();
  }
});
