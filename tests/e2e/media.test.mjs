// Media in Chromium: images load at a ladder width once near the viewport, and the
// lightbox opens from a gallery grid (its chunk fetched only then), moves with the arrow
// keys, closes on Escape and gives focus back, with nothing for axe to report while open;
// on a phone it scrolls between items and toggles captions; an address opens any set.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test media.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { quietContext, useServer } from './support.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const env = useServer({ name: 'media' });
const { serverLog } = env;

/** A page on our server whose requests are recorded (in a desktop window unless `device` says otherwise); anything off this machine gets an empty answer. */
async function openPage(path, device = { viewport: { width: 1200, height: 900 } }) {
  const context = await quietContext(env, device);
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (req) => requests.push(new URL(req.url()).pathname + new URL(req.url()).search));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
  return { context, page, requests, errors };
}

test('images near the viewport load at a width of the ladder', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs');
  const first = page.locator('img[data-src]').first();
  await first.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('img[data-src]')?.classList.contains('loaded'), null, {
    timeout: 10_000,
  });
  const src = await first.getAttribute('src');
  assert.match(src ?? '', /\?format=(2500|1500|1000|750|500|300|100)w$/, `src ${src}`);
  const res = await page.request.get(`${env.base}${src}`);
  assert.equal(res.status(), 200);
  assert.equal(errors.length, 0, errors.join('\n'));
  await context.close();
});

test('an image block narrower than 415 px centres its image across its width, and keeps its alignment wider', { timeout: 60_000 }, async () => {
  // /about's coffee image is aligned left (spec 000 §9: "narrow image block under 415 px").
  for (const [width, align, fills] of [[414, 'center', true], [420, 'left', null], [1200, 'left', false]]) {
    const { context, page, errors } = await openPage('/about', { viewport: { width: width + 32, height: 800 } });
    await page.addStyleTag({ content: `main{max-width:none;padding:0 16px} .block--image{width:${width}px}` });
    const figure = page.locator('.block--image figure.align-left').first();
    const shown = await figure.evaluate((f) => {
      const img = f.querySelector('img');
      return { align: getComputedStyle(f).textAlign, img: img.getBoundingClientRect().width, block: f.closest('.block').clientWidth };
    });
    assert.equal(shown.align, align, `text-align at a ${width} px block`);
    // The 480 px image fills a 420 px block anyway; at 1200 px it keeps its own width.
    if (fills !== null) assert.equal(Math.abs(shown.img - shown.block) < 1, fills, `image ${shown.img} px in a ${shown.block} px block`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('the lightbox opens from a grid, arrows through, closes on Escape and returns focus', { timeout: 60_000 }, async () => {
  const { context, page, requests, errors } = await openPage('/gallery-designs');
  await page.mouse.wheel(0, 400);
  await page.waitForLoadState('networkidle');
  const lightboxChunk = () => requests.filter((r) => /\/assets\/lightbox-[^/]+\.js$/.test(r));
  assert.deepEqual(lightboxChunk(), [], 'the lightbox chunk is not fetched before it opens');

  const link = page.locator('[data-lightbox-set] a[data-lightbox]').first();
  await link.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Gallery' });
  await dialog.waitFor({ timeout: 10_000 });
  assert.equal(await dialog.getAttribute('aria-modal'), 'true');
  assert.equal(lightboxChunk().length, 1, 'the chunk is fetched when the lightbox opens');
  const status = dialog.locator('[aria-live="polite"]');
  const total = await page.locator('[data-lightbox-set]').first().locator('a[data-lightbox]').count();
  assert.equal(await status.textContent(), `1 of ${total}`);
  assert.equal(await page.evaluate(() => location.hash), '#lightbox=1-1');
  assert.ok(await dialog.locator('.lightbox-close').evaluate((el) => el === document.activeElement), 'focus moves in');

  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(250); // past the 200 ms arrow-key throttle
  await page.keyboard.press('ArrowRight');
  assert.equal(await status.textContent(), `3 of ${total}`);
  await page.keyboard.press('Tab');
  assert.ok(await dialog.evaluate((el) => el.contains(document.activeElement)), 'Tab stays inside');

  await page.waitForTimeout(1000); // fully open: overlay, content, close control
  assert.deepEqual(await axeOnDialog(page), []);

  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout: 5_000 });
  assert.ok(await link.evaluate((el) => el === document.activeElement), 'focus returns to the link');
  assert.equal(await page.evaluate(() => document.body.classList.contains('lightbox-open')), false);
  assert.equal(await page.evaluate(() => location.hash), '');
  assert.equal(errors.length, 0, errors.join('\n') + serverLog());
  await context.close();
});

/** Runs axe (WCAG 2 A and AA) on the open lightbox; gives its violations. */
async function axeOnDialog(page) {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(() =>
    window.axe
      .run(document.querySelector('[role="dialog"]'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })
      .then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)),
  );
}

test('on a phone the lightbox scrolls between items and toggles its captions', { timeout: 60_000 }, async () => {
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
  const { context, page, errors } = await openPage('/gallery-designs', phone);
  const link = page.locator('[data-lightbox-set] a[data-lightbox]').first();
  await link.scrollIntoViewIfNeeded();
  await link.tap();
  const dialog = page.getByRole('dialog', { name: 'Gallery' });
  await dialog.waitFor({ timeout: 10_000 });
  const total = await page.locator('[data-lightbox-set]').first().locator('a[data-lightbox]').count();
  const status = dialog.locator('[aria-live="polite"]');
  assert.equal(await status.textContent(), `1 of ${total}`);
  assert.equal(await dialog.locator('.lightbox-previous').isVisible(), false, 'no previous control on a phone');
  assert.equal(await dialog.locator('.lightbox-next').isVisible(), false, 'no next control on a phone');

  const toggle = dialog.getByRole('button', { name: 'Caption' });
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  const captionOf = async () => page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
  assert.equal(await (await captionOf()).isVisible(), false, 'captions start folded away');
  await toggle.tap();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.equal(await (await captionOf()).isVisible(), true, 'the toggle shows the caption');

  // The visitor scrolls to the next item: the announcement, the toggle and the address follow.
  await dialog.locator('.lightbox-content').evaluate((track) => track.scrollBy({ left: track.clientWidth, behavior: 'instant' }));
  await page.waitForFunction(() => document.querySelector('.lightbox-status')?.textContent?.startsWith('2 of'), null, {
    timeout: 5_000,
  });
  assert.equal(await page.evaluate(() => location.hash), '#lightbox=1-2');
  assert.match((await (await captionOf()).textContent()) ?? '', /coffee/);
  assert.equal(await (await captionOf()).isVisible(), true, 'the open captions stay open');

  await page.waitForTimeout(1000); // fully open: overlay, content, close control
  assert.deepEqual(await axeOnDialog(page), []);
  await dialog.getByRole('button', { name: 'Close' }).tap();
  await dialog.waitFor({ state: 'detached', timeout: 5_000 });
  assert.equal(errors.length, 0, errors.join('\n') + serverLog());
  await context.close();
});

test('an address naming the second lightbox set and an item opens it', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs#lightbox=2-3');
  const dialog = page.getByRole('dialog', { name: 'Gallery' });
  await dialog.waitFor({ timeout: 10_000 });
  const total = await page.locator('[data-lightbox-set]').nth(1).locator('a[data-lightbox]').count();
  assert.equal(await dialog.locator('[aria-live="polite"]').textContent(), `3 of ${total}`);
  assert.ok(await dialog.evaluate((el) => el.classList.contains('lightbox--dark')), 'the second set is the dark one');
  assert.equal(errors.length, 0, errors.join('\n') + serverLog());
  await context.close();
});

test('the slideshow autoplays, pausing on hover and by its pause control', { timeout: 60_000 }, async () => {
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
  await context.clock.install({ time: Date.now() });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${env.base}/gallery-designs`, { waitUntil: 'load' });
  const show = page.locator('[data-island="gallery"]').filter({ has: page.locator('.gallery--slideshow') });
  await show.scrollIntoViewIfNeeded();
  const pause = show.getByRole('button', { name: 'Pause slideshow' });
  await pause.waitFor({ timeout: 10_000 });
  const status = show.locator('[aria-live="polite"]');
  const total = await show.locator('ul.gallery > li').count();
  await page.mouse.move(0, 0);
  assert.equal(await status.textContent(), `1 of ${total}`);
  await page.clock.runFor(4_100); // the demo slideshow's autoplay-duration is 4 s
  assert.equal(await status.textContent(), `2 of ${total}`);

  // Hover as events too: the popup overlay, once up, would take a real pointer's hover.
  await show.dispatchEvent('pointerenter', { pointerType: 'mouse' });
  await page.clock.runFor(12_000);
  assert.equal(await status.textContent(), `2 of ${total}`, 'paused while hovered');
  await show.dispatchEvent('pointerleave', { pointerType: 'mouse' });
  // A finger on it does not pause it (no hover pause on mobile).
  await show.dispatchEvent('pointerenter', { pointerType: 'touch' });
  await page.clock.runFor(4_000);
  assert.equal(await status.textContent(), `3 of ${total}`, 'not paused by a finger');
  await show.dispatchEvent('pointerleave', { pointerType: 'touch' });

  // Clicked as events: the site's popup overlay may be up by now (its delay has passed).
  await pause.dispatchEvent('click');
  assert.equal(await show.getByRole('button', { name: 'Play slideshow' }).getAttribute('aria-pressed'), 'true');
  await page.clock.runFor(12_000);
  assert.equal(await status.textContent(), `3 of ${total}`, 'paused by the control');
  await show.getByRole('button', { name: 'Play slideshow' }).dispatchEvent('click');
  await page.clock.runFor(4_100);
  assert.equal(await status.textContent(), `${(3 % total) + 1} of ${total}`);
  assert.deepEqual(errors, []);
  await context.close();
});
