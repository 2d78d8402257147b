// Browser end-to-end tests of the cookie banner and the popup overlay: starts the `veranda`
// binary named by VERANDA_BIN with the demo site (cookie banner on, restrictive cookie policy,
// popup overlay after 20 s, shown again after 14 days) and drives Debian's Chromium.
// - Decline: `ss_cookieAllowed=false` for 30 days on `/`, no analytics cookie, no telemetry call.
// - Accept: `ss_cookieAllowed=true`, then the page hit is recorded and `ss_cvr` set.
// - The popup overlay: shown after its delay, closed with Escape, not shown on the next
//   reloads until 14 days have passed (the page clock is driven by Playwright).
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda npm test
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openSettled, quietContext, useServer } from './support.mjs';

/** Paths of the calls that count as telemetry. */
const TELEMETRY = /^\/api\/(census|events|track|1\/performance)\//;
/** The demo's cookie list cleared without consent (spec 000 §9). */
const ANALYTICS_COOKIES = ['SS_MATTR', 'SS_MID', 'SS_lastvisit', 'user_segment', 'ss_cid', 'ss_cpvisit', 'ss_cvisit', 'ss_cvr', 'ss_cvt'];
const DAY_MS = 86_400_000;

const env = useServer({ name: 'consent' });

/** A context whose requests leaving this machine get an empty answer; it lists telemetry calls. */
async function newContext() {
  const telemetry = [];
  const local = (url) => {
    if (TELEMETRY.test(url.pathname)) telemetry.push(url.pathname);
  };
  const context = await quietContext(env, {}, { local });
  return { context, telemetry };
}

/** Opens `path` and waits until the page is quiet. */
const open = (context, path) => openSettled(env, context, path);

const banner = (page) => page.getByRole('region', { name: 'Cookie consent' });

test('Decline keeps every analytics cookie and telemetry call away', { timeout: 60_000 }, async () => {
  const { context, telemetry } = await newContext();
  const page = await open(context, '/about');
  await banner(page).waitFor({ timeout: 10_000 });
  const decline = banner(page).getByRole('button', { name: 'Decline' });
  const accept = banner(page).getByRole('button', { name: 'Accept' });
  const [d, a] = [await decline.boundingBox(), await accept.boundingBox()];
  assert.ok(d && a && Math.abs(d.width - a.width) < 40 && d.height === a.height, 'Accept and Decline have the same weight');
  await decline.click();
  await banner(page).waitFor({ state: 'detached' });

  const consent = (await context.cookies()).find((c) => c.name === 'ss_cookieAllowed');
  assert.equal(consent?.value, 'false');
  assert.equal(consent?.path, '/');
  const days = (consent.expires * 1000 - Date.now()) / DAY_MS;
  assert.ok(days > 29.9 && days <= 30, `ss_cookieAllowed lasts 30 days (${days})`);

  await page.reload({ waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => setTimeout(() => { throw new Error('not reported without consent'); }));
  await page.waitForTimeout(1500);
  assert.equal(await banner(page).count(), 0, 'an answered banner stays away');
  const names = (await context.cookies()).map((c) => c.name);
  assert.deepEqual(names.filter((n) => ANALYTICS_COOKIES.includes(n)), [], `cookies: ${names.join(', ')}`);
  assert.deepEqual(telemetry, [], 'no telemetry call without consent');
  await context.close();
});

test('Accept records the page hit and sets the visitor cookie', { timeout: 60_000 }, async () => {
  const { context, telemetry } = await newContext();
  const page = await open(context, '/about');
  await banner(page).waitFor({ timeout: 10_000 });
  assert.deepEqual(telemetry, [], 'nothing is sent before an answer');
  const hit = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/census/RecordHit', { timeout: 10_000 });
  await banner(page).getByRole('button', { name: 'Accept' }).click();
  assert.ok((await hit).ok(), 'RecordHit after Accept');
  await banner(page).waitFor({ state: 'detached' });
  const cookies = new Map((await context.cookies()).map((c) => [c.name, c.value]));
  assert.equal(cookies.get('ss_cookieAllowed'), 'true');
  assert.equal(cookies.get('ss_cookieBannerVersion'), '2');
  assert.match(decodeURIComponent(cookies.get('ss_cvr') ?? ''), /^[\w-]+\|\d+\|\d+\|\d+\|1$/);
  await context.close();
});

test('the popup overlay comes back only after its display frequency', { timeout: 90_000 }, async () => {
  const { context } = await newContext();
  const start = Date.now();
  await context.clock.install({ time: start });
  // Answer the banner first so it stays out of the way.
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: env.base }]);
  const dialog = (page) => page.getByRole('dialog', { name: 'Porch letters' });

  const page = await open(context, '/about');
  assert.equal(await dialog(page).count(), 0, 'not before its delay');
  await context.clock.fastForward(20_000);
  await dialog(page).waitFor({ timeout: 10_000 });
  assert.ok(await page.evaluate(() => document.querySelector('dialog.popup-overlay')?.matches(':modal')), 'a modal dialog');
  assert.ok(await page.evaluate(() => document.activeElement?.closest('dialog') !== null), 'focus is inside it');
  await page.keyboard.press('Escape');
  // The dialog's `close` event (which saves the record) comes in a task after Escape.
  let raw = null;
  for (let i = 0; i < 50 && raw === null; i += 1) {
    raw = await page.evaluate(() => localStorage.getItem('veranda-popup-overlay'));
    if (raw === null) await new Promise((r) => setTimeout(r, 100));
  }
  const record = JSON.parse(raw);
  assert.equal(await page.locator('dialog').count(), 0, 'the overlay is gone');
  assert.deepEqual(Object.keys(record).sort(), ['date-closed', 'submitted', 'version']);

  for (const days of [0, 13]) {
    await context.clock.setSystemTime(start + days * DAY_MS + 60_000);
    await page.reload({ waitUntil: 'load' });
    await context.clock.fastForward(21_000);
    await page.waitForTimeout(300);
    assert.equal(await dialog(page).count(), 0, `not again after ${days} days`);
  }
  await context.clock.setSystemTime(start + 15 * DAY_MS);
  await page.reload({ waitUntil: 'load' });
  await context.clock.fastForward(21_000);
  await dialog(page).waitFor({ timeout: 10_000 });
  await context.close();
});
