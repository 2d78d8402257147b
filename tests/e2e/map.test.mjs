// The map island and widget rendering in Chromium, against the demo site. Nothing leaves
// the machine: tile addresses (OpenStreetMap's, the site's default) are answered with a
// 1×1 PNG, and every other outside address with 204.
//
// - The contact page's map renders tiles and its marker above the address fallback, is
//   keyboard-focusable with an accessible name, and axe finds nothing in the block.
// - When no tile loads, the map is taken down and the address fallback is what shows.
// - A summary block whose data changes asks the server for its rendering
//   (POST /api/widget/GetWidgetRendering) and shows the answer; a refused answer logs the
//   warning and leaves the block as it was.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test map.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { assertMapFallback, axe, quietContext, useServer, watchedPage } from './support.mjs';

/** A 1×1 transparent PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const env = useServer({ name: 'map' });

/** A page of the site; tiles answer `tiles` ('png' or 'fail'), other outside addresses 204. */
async function open(path, { tiles = 'png' } = {}) {
  const tileRequests = [];
  const outside = (route, url) => {
    if (!url.href.startsWith('https://tile.openstreetmap.org/')) return undefined;
    tileRequests.push(url.href);
    return tiles === 'png'
      ? route.fulfill({ status: 200, contentType: 'image/png', body: PNG })
      : route.fulfill({ status: 404, body: '' });
  };
  const context = await quietContext(env, { reducedMotion: 'reduce', viewport: { width: 1200, height: 900 } }, { outside });
  const { page, errors, console } = await watchedPage(context);
  await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
  return { context, page, errors, console, tileRequests };
}

test('the map renders tiles and its marker above the address, and axe finds nothing', { timeout: 60_000 }, async () => {
  const { context, page, errors, tileRequests } = await open('/contact');
  const block = page.locator('.block--map');
  await block.scrollIntoViewIfNeeded();
  const canvas = block.locator('.map-canvas');
  await canvas.locator('.leaflet-tile-loaded').first().waitFor({ timeout: 20_000 });
  assert.ok(tileRequests.length > 0, 'tiles were asked for');
  assert.ok(tileRequests.every((u) => /^https:\/\/tile\.openstreetmap\.org\/\d+\/\d+\/\d+\.png$/.test(u)), tileRequests.join('\n'));
  assert.ok(tileRequests.some((u) => u.includes('/15/')), 'the block zoom (15) is used');
  const marker = canvas.locator('.leaflet-marker-icon');
  await marker.waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await marker.getAttribute('title'), 'Veranda Café & Supply');
  assert.equal(await canvas.getAttribute('aria-label'), 'Map of Veranda Café & Supply');
  assert.equal(await canvas.getAttribute('role'), 'region');
  // The fallback stays in the page.
  assert.match(await block.locator('.map-fallback address').innerText(), /12 Linden Street/);
  assert.equal(await block.locator('.map-canvas--grayscale').count(), 1, 'the block style (Grayscale) is applied');

  // Keyboard: the map takes focus and the arrow keys pan it.
  await canvas.focus();
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('map-canvas')), true);
  const before = await canvas.locator('.leaflet-map-pane').evaluate((el) => getComputedStyle(el).transform);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    (b) => getComputedStyle(document.querySelector('.block--map .leaflet-map-pane')).transform !== b,
    before,
    { timeout: 10_000 },
  );

  const violations = await axe(page, '.block--map', ['wcag2a', 'wcag2aa']);
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('when no tile loads, the address fallback is what shows', { timeout: 60_000 }, async () => {
  const { context, page, errors, console } = await open('/contact', { tiles: 'fail' });
  const block = page.locator('.block--map');
  await block.scrollIntoViewIfNeeded();
  await assertMapFallback(block, console, errors);
  await context.close();
});

test('a summary block whose data changes is rendered by the server; a refusal leaves it', { timeout: 60_000 }, async () => {
  const { context, page, errors, console } = await open('/');
  const block = page.locator('#block-4c438a52a7e74bcfb3c2c2e1');
  await block.scrollIntoViewIfNeeded();
  await page.waitForSelector('#block-4c438a52a7e74bcfb3c2c2e1[data-island-state="mounted"]', { timeout: 20_000 });
  assert.equal(await block.locator('li').count(), 3, 'the server rendered three posts');

  const answered = page.waitForResponse((r) => r.url().endsWith('/api/widget/GetWidgetRendering'));
  await block.evaluate((el) =>
    el.dispatchEvent(new CustomEvent('veranda:block-data', {
      detail: { collection: 'blog', design: 'list', headerText: 'Latest', pageSize: 1 },
    })),
  );
  assert.equal((await answered).status(), 200);
  await page.waitForFunction(() => document.querySelector('#block-4c438a52a7e74bcfb3c2c2e1 h2')?.textContent === 'Latest', null, { timeout: 10_000 });
  assert.equal(await block.locator('li').count(), 1);

  // A collection the site does not have: refused, warned, left as it was.
  const before = await block.innerHTML();
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/widget/GetWidgetRendering'));
  await block.evaluate((el) =>
    el.dispatchEvent(new CustomEvent('veranda:block-data', { detail: { collection: 'no-such', pageSize: 1 } })),
  );
  assert.equal((await refused).status(), 404);
  await page.waitForFunction(() => !document.querySelector('#block-4c438a52a7e74bcfb3c2c2e1').hasAttribute('aria-busy'), null, { timeout: 10_000 });
  assert.equal(await block.innerHTML(), before);
  assert.ok(console.some((line) => line.startsWith('warning: Widget JSON could not be decoded')), console.join('\n'));
  assert.deepEqual(errors, []);
  await context.close();
});
