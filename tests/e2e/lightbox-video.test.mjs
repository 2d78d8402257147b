// Lightbox video items in Chromium (001 §3 videoLoaderOptions, §9): a copy of the demo site
// with one more page, a grid gallery whose second slide is a video. Clicking the video's
// poster opens the lightbox on it; the player loads in the poster's place, sized to the
// window at the video's proportions, is sized again 1000 ms after the window changes, and
// goes when the lightbox closes. Nothing leaves the machine (the player's page is answered
// empty).
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test lightbox-video.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { demoSiteWithPage, eventually, openClockedPage, resizeViewport, useServer } from './support.mjs';

const PAGE = `id = "5d0c1e6a7b8f9a0b1c2d3e4f"
url = "/lightbox-video"
title = "Lightbox video"
description = "A grid with a film among the photographs."

[[blocks]]
kind = "gallery"
id = "6e1d2f7b8c9a0b1c2d3e4f50"
design = "grid"

[[blocks.slides]]
src = "porch.png"
alt = "The café porch with benches in the afternoon"
caption = "The café porch."

[[blocks.slides]]
src = "sunset.png"
alt = "A morning at the Veranda, a short film"
caption = "A morning at the Veranda."
videoHtml = '<iframe src="https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ" title="A morning at the Veranda" width="640" height="360" allowfullscreen></iframe>'
`;

const env = useServer({
  name: 'lightbox-video',
  site: (dataDir) => demoSiteWithPage(dataDir, 'lightbox-video', PAGE),
});

/** The lightbox player's size in px. */
const playerSize = (page) =>
  page.locator('.lightbox iframe').evaluate((frame) => ({ width: Number(frame.width), height: Number(frame.height) }));

test('a gallery video slide plays in the lightbox, sized to the window', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openClockedPage(env, '/lightbox-video', { width: 1200, height: 900 });
  const poster = page.locator('ul.gallery > li[data-type="video"] a');
  await poster.scrollIntoViewIfNeeded();
  // The gallery island makes the poster an item of the lightbox set.
  await page.locator('ul.gallery > li[data-type="video"] a[data-lightbox]').waitFor({ state: 'attached', timeout: 15_000 });
  await poster.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ timeout: 10_000 });
  assert.equal(await dialog.locator('[aria-live="polite"]').textContent(), '2 of 2');
  await eventually(async () => (await page.locator('.lightbox iframe').count()) === 1, 'the player loads', {
    step: () => page.clock.runFor(100),
  });
  const frame = page.locator('.lightbox iframe');
  // The player is named as the server names the slide's player: by the slide's text.
  assert.equal(await frame.getAttribute('title'), 'A morning at the Veranda, a short film');
  assert.equal(await frame.getAttribute('src'), 'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ?autoplay=1&enablejsapi=1');
  // 92 % of 1200 px wide, 56.3 % of that high: it fits in 80 % of 900 px.
  assert.deepEqual(await playerSize(page), { width: 1104, height: 622 });

  await resizeViewport(page, { width: 800, height: 600 });
  // The page's clock also runs on by itself, so the edge is only checked loosely here (the
  // unit test pins it to the millisecond).
  await page.clock.runFor(500);
  assert.deepEqual(await playerSize(page), { width: 1104, height: 622 }, 'not before 1000 ms');
  await page.clock.runFor(500);
  // 80 % of 600 px high bounds it now: 480 px high, 853 px wide would pass 92 % of 800 px.
  assert.deepEqual(await playerSize(page), { width: 736, height: 414 });

  await page.keyboard.press('Escape');
  await page.clock.runFor(400);
  assert.equal(await page.locator('.lightbox iframe').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});
