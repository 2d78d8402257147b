// Accessibility in Chromium: axe-core (WCAG 2 A and AA rules, plus best practices) over every
// page of the demo's sitemap and its special pages, with the cookie banner up, then over a
// page with the popup overlay open. Zero violations is the bar. Then the widgets by hand:
// the accordion by keyboard alone, and the marquee, which moves only in view and never
// under reduced motion.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda npm test
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, quietContext, useServer, visitAll } from './support.mjs';

const SPECIAL_PAGES = ['/private', '/members', '/?logout=true', '/search?q=coffee', '/no-such-page-a11y'];

const env = useServer({ name: 'a11y' });
const { serverLog } = env;

/** Paths of the sitemap, plus the special pages. */
async function demoPaths() {
  const res = await fetch(`${env.base}/sitemap.xml`);
  assert.equal(res.status, 200, `GET /sitemap.xml${serverLog()}`);
  const xml = await res.text();
  const paths = [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((m) => {
    const url = new URL(m[1].replaceAll('&amp;', '&'), env.base);
    return `${url.pathname}${url.search}`;
  });
  assert.ok(paths.length > 0, 'the sitemap lists pages');
  return [...new Set([...paths, ...SPECIAL_PAGES])];
}

test('axe finds no violation on any demo page, with the cookie banner up', { timeout: 300_000 }, async (t) => {
  const context = await quietContext(env);
  const paths = await demoPaths();
  const found = await visitAll(paths, async (path) => {
    const page = await context.newPage();
    await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
    await page.mouse.wheel(0, 100_000);
    await page.waitForLoadState('networkidle');
    await page.getByRole('region', { name: 'Cookie consent' }).waitFor({ timeout: 10_000 });
    const violations = await axe(page);
    await page.close();
    return violations;
  });
  await context.close();
  paths.forEach((path, i) => t.diagnostic(`${path}: ${found[i].length} violation(s)`));
  assert.deepEqual(paths.flatMap((path, i) => found[i].map((line) => `${path}: ${line}`)), []);
});

test('axe finds no violation with the popup overlay open', { timeout: 60_000 }, async () => {
  const context = await quietContext(env);
  await context.clock.install({ time: Date.now() });
  const page = await context.newPage();
  await page.goto(`${env.base}/`, { waitUntil: 'load' });
  await page.waitForLoadState('networkidle');
  await context.clock.fastForward(20_000);
  await page.getByRole('dialog', { name: 'Porch letters' }).waitFor({ timeout: 10_000 });
  assert.deepEqual(await axe(page), []);
  await context.close();
});

test('the accordion works with the keyboard alone, one item open at a time', { timeout: 60_000 }, async () => {
  const context = await quietContext(env);
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: env.base }]);
  const page = await context.newPage();
  await page.goto(`${env.base}/about`, { waitUntil: 'load' });
  const block = page.locator('[data-island="accordion"]');
  await block.scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-island="accordion"][data-island-state="mounted"]', { timeout: 10_000 });
  const open = () => block.locator('details').evaluateAll((items) => items.map((d) => d.dataset.isOpen === 'true'));
  assert.deepEqual(await open(), [true, false, false], 'the first item starts expanded');

  await block.locator('summary').nth(0).focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Can I bring my dog?', 'Tab reaches the next item');
  await page.keyboard.press('Enter');
  assert.deepEqual(await open(), [false, true, false], 'Enter opens it and closes the other');
  await page.waitForTimeout(400);
  await page.keyboard.press('Space');
  assert.deepEqual(await open(), [false, false, false], 'Space closes it');
  await page.waitForTimeout(400);
  assert.deepEqual(await block.locator('details').evaluateAll((items) => items.map((d) => d.open)), [false, false, false]);
  await context.close();
});

test('the marquee moves only in view and never under reduced motion', { timeout: 60_000 }, async () => {
  const states = async (reducedMotion) => {
    const context = await env.browser.newContext({ reducedMotion, viewport: { width: 800, height: 400 } });
    await context.addCookies([{ name: 'ss_cookieAllowed', value: 'false', url: env.base }]);
    const page = await context.newPage();
    await page.goto(`${env.base}/`, { waitUntil: 'load' });
    const block = page.locator('[data-island="marquee"]');
    await block.scrollIntoViewIfNeeded();
    await page.waitForSelector('[data-island="marquee"][data-island-state="mounted"]', { timeout: 10_000 });
    await page.waitForTimeout(300);
    const playing = () => page.evaluate(() => document.querySelector('.marquee-widget__track')?.getAnimations().map((a) => a.playState));
    const inView = await playing();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(300);
    const box = await block.boundingBox();
    assert.ok(box && box.y + box.height < 0, 'scrolled past the marquee');
    const outOfView = await playing();
    const label = await block.locator('.visually-hidden').textContent();
    await context.close();
    return { inView, outOfView, label };
  };
  const moving = await states('no-preference');
  assert.deepEqual(moving.inView, ['running']);
  assert.deepEqual(moving.outOfView, ['paused']);
  assert.ok(moving.label.trim().length > 0, 'the text is there once for screen readers');
  const still = await states('reduce');
  assert.deepEqual(still.inView, ['paused']);
});
