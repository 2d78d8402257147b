// Browser end-to-end test of the font stylesheets and comment counts a site names (spec 000 §7:
// "a font-stylesheet service by family names", "a comments-count script keyed by the configured
// comment-service short name"). The binary named by VERANDA_BIN serves a copy of the demo site
// (the restrictive cookie policy, comments on) that names the Google fonts Fraunces and Inter
// and the comment short name `veranda-porch`. The browser reaches no other machine: the font service and the
// comment service's count and thread scripts are answered by stand-ins of the test (the count
// script fills every count link with '3 Comments', as the real one does; the thread script
// draws a line naming the item and address it was given). In Debian's Chromium:
// - the demo's font stylesheet is requested from the font service and applied;
// - an item page loads the count script of the short name only after the visitor accepts
//   cookies, once, and its link shows the count; a page without a count link loads none;
// - the item's thread is offered behind 'Show comments' before consent and drawn when asked
//   for (keyboard focus kept there, axe clean); after an Accept it loads by itself.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test fonts-comments.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

import { axe, demoSiteWith, eventually, quietContext, useServer } from './support.mjs';

const FONTS = 'https://fonts.googleapis.com/css?family=Fraunces%7CInter&display=swap';
const COUNT_SCRIPT = 'https://veranda-porch.disqus.com/count.js';
const THREAD_SCRIPT = 'https://veranda-porch.disqus.com/embed.js';
const POST = '/blog/roasting-our-own';

/** The stand-in count script: fills every count link, as the comment service's does. */
const STAND_IN_COUNT = `document.querySelectorAll('a[href$="#disqus_thread"]').forEach((a) => { a.textContent = '3 Comments'; });`;
/** The stand-in thread script: reads the page it is given and draws a thread for it, as the service's does. */
const STAND_IN_THREAD = `(() => { const page = {}; window.disqus_config.call({ page });
  const p = document.createElement('p'); p.className = 'stand-in-thread'; p.textContent = 'Thread ' + page.identifier + ' at ' + page.url;
  document.getElementById('disqus_thread').append(p); })();`;
/** The stand-in font stylesheet: a rule the test can see applied. */
const STAND_IN_FONTS = '.site-title{letter-spacing:3px}';

const env = useServer({
  name: 'fonts-comments',
  site: async (dataDir) => {
    const site = await demoSiteWith(dataDir, '');
    const file = join(site, 'site.toml');
    const text = await readFile(file, 'utf8');
    assert.ok(text.includes('[comments]\ncommentsEnabled = true'), 'the demo site has comments on');
    assert.ok(text.includes('templateVersion = "7.1"\n'), 'the demo site names its template version');
    const named = text
      .replace('templateVersion = "7.1"\n', 'templateVersion = "7.1"\ngoogleFonts = ["Fraunces", "Inter"]\n')
      .replace('[comments]\ncommentsEnabled = true', '[comments]\ncommentsEnabled = true\ndisqusShortname = "veranda-porch"');
    await writeFile(file, named);
    return site;
  },
});
const { serverLog } = env;

/** A context whose outside requests are listed in `seen`; the two services get their stand-ins. */
async function newContext(consent) {
  const seen = [];
  const context = await quietContext(env, {}, {
    consent,
    outside: (route, url) => {
      seen.push(url.href);
      if (url.href === THREAD_SCRIPT) return route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN_THREAD });
      if (url.href === COUNT_SCRIPT) return route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN_COUNT });
      if (url.href === FONTS) return route.fulfill({ status: 200, contentType: 'text/css', body: STAND_IN_FONTS });
      return undefined;
    },
  });
  return { context, seen };
}

test('the fonts the site names are fetched from the font service and applied', { timeout: 60_000 }, async () => {
  const { context, seen } = await newContext(false);
  const page = await context.newPage();
  const response = await page.goto(`${env.base}/about`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, serverLog());
  await eventually(async () => (await page.locator('.site-title').evaluate((el) => getComputedStyle(el).letterSpacing)) === '3px', 'the font stylesheet is applied');
  assert.deepEqual(seen.filter((href) => href.startsWith('https://fonts.')), [FONTS]);
  assert.equal(await page.locator('link[data-font-stylesheet]').getAttribute('rel'), 'stylesheet');
  await context.close();
});

test('the comment count script loads only after the visitor accepts cookies, once, and fills the count', { timeout: 60_000 }, async () => {
  const { context, seen } = await newContext(undefined);
  const page = await context.newPage();
  await page.goto(`${env.base}${POST}`, { waitUntil: 'load' });
  const link = page.locator('a.comment-count');
  assert.equal(await link.textContent(), 'Comments');
  await page.waitForLoadState('networkidle');
  assert.ok(!seen.includes(COUNT_SCRIPT), 'no count script before consent');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await banner.getByRole('button', { name: 'Accept' }).click();
  await eventually(async () => (await link.textContent()) === '3 Comments', 'the count is shown after Accept');
  assert.equal(seen.filter((href) => href === COUNT_SCRIPT).length, 1);
  assert.equal(await page.locator('script#dsq-count-scr').count(), 1);
  await context.close();
});

test('a visitor who has accepted gets the count at once; a page without a count link loads no script', { timeout: 60_000 }, async () => {
  const { context, seen } = await newContext(true);
  const page = await context.newPage();
  await page.goto(`${env.base}${POST}`, { waitUntil: 'load' });
  await eventually(async () => (await page.locator('a.comment-count').textContent()) === '3 Comments', 'the count is shown');
  const other = await context.newPage();
  const before = seen.filter((href) => href === COUNT_SCRIPT).length;
  await other.goto(`${env.base}/about`, { waitUntil: 'load' });
  await other.waitForLoadState('networkidle');
  assert.equal(await other.locator('a.comment-count').count(), 0);
  assert.equal(seen.filter((href) => href === COUNT_SCRIPT).length, before, 'no count script without a count link');
  await context.close();
});

test('the comment thread is offered before consent and drawn when asked for; after an Accept it loads by itself', { timeout: 60_000 }, async () => {
  const { context, seen } = await newContext(undefined);
  const page = await context.newPage();
  await page.goto(`${env.base}${POST}`, { waitUntil: 'load' });
  const comments = page.getByRole('region', { name: 'Comments' });
  const show = comments.getByRole('button', { name: 'Show comments' });
  await show.waitFor({ timeout: 10_000 });
  await page.waitForLoadState('networkidle');
  assert.ok(!seen.includes(THREAD_SCRIPT), 'no thread script before the visitor asks');
  await show.focus();
  await page.keyboard.press('Enter');
  const drawn = comments.locator('.stand-in-thread');
  await drawn.waitFor({ timeout: 10_000 });
  const thread = page.locator('#disqus_thread');
  const [identifier, url] = [await thread.getAttribute('data-comment-identifier'), await thread.getAttribute('data-comment-url')];
  assert.ok(identifier && url?.endsWith(POST), `the thread names its item and the item's address: ${identifier} ${url}`);
  assert.equal(await drawn.textContent(), `Thread ${identifier} at ${url}`);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'disqus_thread', 'the keyboard stays at the thread');
  assert.deepEqual(await axe(page), []);
  await context.close();

  const accepted = await newContext(true);
  const again = await accepted.context.newPage();
  await again.goto(`${env.base}${POST}`, { waitUntil: 'load' });
  await again.locator('#disqus_thread').scrollIntoViewIfNeeded();
  await again.locator('.stand-in-thread').waitFor({ timeout: 10_000 });
  assert.equal(await again.getByRole('button', { name: 'Show comments' }).count(), 0);
  assert.equal(accepted.seen.filter((href) => href === THREAD_SCRIPT).length, 1);
  await accepted.context.close();
});
