// Video in Chromium: the play overlay over the demo's video swaps in the provider's
// iframe on Enter or Space, moves focus into it, and the player is played and paused by
// posted messages. Nothing leaves the machine: the provider's address is answered by a
// stand-in player that posts back every message it receives.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test video.test.mjs
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

import { quietContext, useServer } from './support.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const env = useServer({ name: 'video' });

/** The stand-in player: echoes every message to the page that embeds it. */
const PLAYER = `<!doctype html><html lang="en"><title>Player</title><body>
<script>addEventListener('message', (e) => parent.postMessage({ echo: e.data, origin: location.origin }, '*'));</script>`;

/** The about page (it holds the demo's video), with the stand-in player and a record of its echoes. */
async function openAbout(query = '', reducedMotion = 'no-preference') {
  const outside = (route, url) =>
    url.href.startsWith('https://www.youtube-nocookie.com/embed/')
      ? route.fulfill({ status: 200, contentType: 'text/html', body: PLAYER })
      : undefined;
  const context = await quietContext(env, { reducedMotion, viewport: { width: 1200, height: 900 } }, { outside });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.addInitScript(() => {
    window.echoes = [];
    addEventListener('message', (e) => e.data && e.data.echo && window.echoes.push(JSON.parse(e.data.echo)));
  });
  await page.goto(`${env.base}/about${query}`, { waitUntil: 'load' });
  const play = page.locator('.block--video .video-play');
  await play.scrollIntoViewIfNeeded();
  await play.waitFor({ timeout: 10_000 });
  return { context, page, play, errors };
}

const frameIn = (page) => page.locator('.block--video .video-wrapper > iframe');

test('Enter on the play overlay shows the video, focuses it, and the player is played then paused by messages', { timeout: 60_000 }, async () => {
  const { context, page, play, errors } = await openAbout();
  assert.equal(await play.getAttribute('aria-label'), 'Play A morning at the Veranda (2 minutes)');
  assert.equal(await frameIn(page).count(), 0, 'no iframe before play');
  const ratio = await page.locator('.block--video .video-wrapper').evaluate((el) => el.offsetHeight / el.offsetWidth);
  assert.ok(Math.abs(ratio - 360 / 640) < 0.01, `the wrapper keeps the embed's ratio (${ratio})`);

  await play.focus();
  await page.keyboard.press('Enter');
  const frame = frameIn(page);
  await frame.waitFor({ timeout: 5_000 });
  assert.match((await frame.getAttribute('src')) ?? '', /^https:\/\/www\.youtube-nocookie\.com\/embed\/aqz-KE-bpKQ\?.*autoplay=1/);
  assert.ok(await frame.evaluate((el) => el === document.activeElement), 'focus moves into the video');
  assert.ok(await play.isHidden(), 'the overlay is gone');

  await page.waitForFunction(() => window.echoes.some((m) => m.func === 'playVideo'), null, { timeout: 5_000 });
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await page.waitForFunction(() => window.echoes.some((m) => m.func === 'pauseVideo'), null, { timeout: 5_000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('Space on the play overlay shows the video; axe finds nothing before or after', { timeout: 60_000 }, async () => {
  // Reduced motion: no block fades in while axe measures contrast.
  const { context, page, play, errors } = await openAbout('', 'reduce');
  await page.addScriptTag({ content: AXE_SOURCE });
  const axe = () =>
    page.evaluate(() =>
      window.axe
        .run(document.querySelector('.block--video'), { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } })
        .then((r) => r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ') + ' ' + n.failureSummary).join(', ')}`)),
    );
  assert.deepEqual(await axe(), []);
  await play.focus();
  await page.keyboard.press('Space');
  await frameIn(page).waitFor({ timeout: 5_000 });
  assert.ok(await frameIn(page).evaluate((el) => el === document.activeElement));
  assert.deepEqual(await axe(), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a click on the poster overlay shows the video', { timeout: 60_000 }, async () => {
  const { context, page, play } = await openAbout('?nomotion=true');
  await play.click();
  await frameIn(page).waitFor({ timeout: 5_000 });
  assert.equal(await frameIn(page).getAttribute('title'), 'A morning at the Veranda (2 minutes)');
  await context.close();
});
