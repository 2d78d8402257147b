// Gallery clicks and defaults in Chromium (001 §4, §9): a slideshow click goes to the next
// slide instead of opening the lightbox, a slider makes the clicked slide current and its
// current slide goes next (Space too), the grid shows its slides per row (2 on a phone),
// a slideshow loads only the current and the next slide's images, and a video slide shows
// its player only once played.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test gallery-clicks.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { openClockedPage, useServer } from './support.mjs';

const env = useServer({ name: 'gallery-clicks' });

/** The page at `path` with its timers held (see `openClockedPage`). */
const openPage = (path, viewport) => openClockedPage(env, path, viewport);

/** The gallery block whose list has `design`, scrolled into view and mounted. */
async function mounted(page, design) {
  const block = page.locator('[data-block-type="gallery"]').filter({ has: page.locator(`ul.gallery--${design}`) }).first();
  await block.scrollIntoViewIfNeeded();
  await page.waitForFunction((el) => el.classList.contains('gallery-viewer'), await block.elementHandle(), { timeout: 15_000 });
  return block;
}

const current = (block) =>
  block.evaluate((el) => Array.from(el.querySelectorAll('ul.gallery > li')).findIndex((li) => li.classList.contains('is-current')));

test('a slideshow click shows the next slide, not the lightbox', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs');
  const show = await mounted(page, 'slideshow');
  assert.equal(await current(show), 0);
  const box = await show.locator('ul.gallery').boundingBox();
  await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
  assert.equal(await current(show), 1, 'the left half goes next too (clickBehavior next)');
  assert.equal(await page.getByRole('dialog').count(), 0, 'no lightbox');
  await page.clock.runFor(1_300);
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
  assert.equal(await current(show), 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a slideshow loads only the current and the next slide images', { timeout: 60_000 }, async () => {
  const { context, page } = await openPage('/slideshow-transitions');
  const show = await mounted(page, 'slideshow');
  const shown = () =>
    show.evaluate((el) => Array.from(el.querySelectorAll('ul.gallery > li img'), (img) => getComputedStyle(img).display !== 'none'));
  assert.deepEqual(await shown(), [true, true, false, false, false]);
  await show.getByRole('button', { name: 'Next slide' }).click();
  assert.deepEqual(await shown(), [true, true, true, false, false]);
  await context.close();
});

test('a slider makes a clicked slide current, its current slide goes next, and Space activates', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/gallery-designs');
  const strip = await mounted(page, 'slider');
  assert.equal(await strip.locator('ul.gallery').evaluate((ul) => getComputedStyle(ul).columnGap), '10px');
  await strip.locator('ul.gallery > li').nth(1).locator('img').click();
  assert.equal(await current(strip), 1);
  assert.equal(await page.getByRole('dialog').count(), 0, 'no lightbox');
  await page.clock.runFor(600);
  await strip.locator('ul.gallery > li').nth(1).locator('img').click();
  assert.equal(await current(strip), 2, 'the current slide goes next');
  await page.clock.runFor(600);
  await strip.locator('ul.gallery > li').nth(0).locator('a').focus();
  await page.keyboard.press('Space');
  assert.equal(await current(strip), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a grid shows its slides per row, and 2 per row on a phone', { timeout: 60_000 }, async () => {
  const columns = async (viewport) => {
    const { context, page } = await openPage('/gallery-designs', viewport);
    const grid = page.locator('ul.gallery--grid').first();
    const style = await grid.evaluate((ul) => ({ columns: getComputedStyle(ul).gridTemplateColumns.split(' ').length, gap: getComputedStyle(ul).columnGap }));
    await context.close();
    return style;
  };
  assert.deepEqual(await columns({ width: 1200, height: 900 }), { columns: 3, gap: '12px' });
  assert.deepEqual(await columns({ width: 390, height: 844 }), { columns: 2, gap: '12px' });
});

test('a video slide shows a poster and a play control, and its player only once played', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openPage('/slideshow-transitions');
  const show = page.locator('#block-be536dd8d07ad12ac8aaf9e2'); // the swipe slideshow
  await show.scrollIntoViewIfNeeded();
  await page.waitForFunction((el) => el.classList.contains('gallery-viewer'), await show.elementHandle(), { timeout: 15_000 });
  const video = show.locator('ul.gallery > li[data-type="video"]');
  assert.equal(await video.count(), 1);
  assert.equal(await show.locator('iframe').count(), 0, 'no iframe before play');
  await show.getByRole('button', { name: 'Previous slide' }).click();
  await page.clock.runFor(600);
  assert.equal(await current(show), 4);
  await show.getByRole('button', { name: 'Play A morning at the Veranda, a short film' }).click();
  const src = await video.locator('iframe').getAttribute('src');
  assert.equal(src, 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?autoplay=1&enablejsapi=1');
  await show.getByRole('button', { name: 'Next slide' }).click();
  assert.equal(await current(show), 0, 'the slideshow moves on (the video is paused)');
  assert.deepEqual(errors, []);
  await context.close();
});
