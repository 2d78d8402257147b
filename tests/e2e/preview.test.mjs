// Browser end-to-end test of the live preview: starts the `veranda` binary named by VERANDA_BIN
// (after creating an owner account in its fresh data dir) with the demo site; the owner signs
// in and opens a demo page in Debian's Chromium, then
// - a text block's content saved through `PUT /api/content/blocks/{id}` replaces that block on
//   the open page without a reload, leaving the page's other blocks as they were;
// - a page settings edit of that page changes its title; an edit of another page changes
//   nothing here;
// - a visitor's page never fetches the preview chunk.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test preview.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`, or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fetchAs, quietContext, useServer } from './support.mjs';

const OWNER = { email: 'owner@example.com', password: 'porch-swing-lantern-42' };
/** The demo About page, its first text block, and another page. */
const ABOUT = { path: '/about', id: 'af4c62082b549d924d8ead37', textBlock: '085024dcf58d4d4d826b5c67' };
const CONTACT_PATH = '/contact';

const env = useServer({ name: 'preview', owner: OWNER, signedIn: true });
const { serverLog } = env;

/** `PUT path` as the owner, crumb-checked. */
async function put(path, body) {
  const res = await fetchAs(env, 'PUT', path, body);
  assert.equal(res.status, 200, `PUT ${path}: ${await res.text()}`);
}

/** The owner's page at `path` (with `noredirect`, so the owner redirect keeps it), its preview live. */
async function openAsOwner(path) {
  const context = await quietContext(env, {}, { cookies: env.cookies });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto(`${env.base}${path}?noredirect`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, `GET ${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.preview === 'live', null, { timeout: 10_000 })
    .catch(() => assert.fail(`the preview did not go live${serverLog()}`));
  await page.evaluate(() => { window.__notReloaded = true; });
  return { context, page, errors };
}

test('a saved text block replaces that block on the owner\'s open page without a reload', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openAsOwner(ABOUT.path);
  const block = page.locator(`#block-${ABOUT.textBlock}`);
  assert.match(await block.innerText(), /About the Veranda/);
  // Another block of the page: it must be the very same element afterwards.
  await page.evaluate((id) => {
    window.__otherBlock = [...document.querySelectorAll('[id^="block-"]')].find((el) => el.id !== `block-${id}`);
  }, ABOUT.textBlock);
  assert.ok(await page.evaluate(() => window.__otherBlock instanceof Element), 'the page has another block');

  await put(`/api/content/blocks/${ABOUT.textBlock}`, { html: '<h2>Live from the porch</h2><p>Fresh scones at nine.</p>' });
  await block.getByRole('heading', { name: 'Live from the porch' }).waitFor({ timeout: 3_000 })
    .catch(() => assert.fail(`the block was not replaced${serverLog()}`));
  assert.doesNotMatch(await block.innerText(), /About the Veranda/);
  assert.equal(await page.evaluate(() => window.__notReloaded), true, 'the page did not reload');
  assert.equal(await page.evaluate(() => window.__otherBlock.isConnected), true, 'the other blocks stay as they were');
  assert.equal(await page.getByRole('status').filter({ hasText: 'This page was updated.' }).count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a page settings edit retitles the open page; another page\'s edit leaves it alone', { timeout: 60_000 }, async () => {
  const { context, page, errors } = await openAsOwner(ABOUT.path);
  const contact = await (await fetch(`${env.base}${CONTACT_PATH}`)).text();
  const contactId = contact.match(/"pageId":"([0-9a-f]{24})"/)?.[1];
  assert.ok(contactId, 'the contact page has an id');
  await put(`/api/content/pages/${contactId}/settings`, { title: 'Write to us' });
  await put(`/api/content/pages/${ABOUT.id}/settings`, { title: 'Who we are' });
  await page.waitForFunction(() => document.title.startsWith('Who we are'), null, { timeout: 3_000 })
    .catch(() => assert.fail(`the title did not change${serverLog()}`));
  // Both events have been read in order by now; only the About edit refreshed the page.
  assert.equal(await page.evaluate(() => document.documentElement.dataset.previewUpdates), '1');
  assert.equal(await page.evaluate(() => window.__notReloaded), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a visitor\'s page never fetches the preview chunk', { timeout: 30_000 }, async () => {
  const context = await quietContext(env);
  const page = await context.newPage();
  const scripts = [];
  page.on('request', (r) => scripts.push(new URL(r.url()).pathname));
  await page.goto(`${env.base}${ABOUT.path}`, { waitUntil: 'load' });
  await page.waitForTimeout(500);
  assert.ok(scripts.some((p) => /\/loader-[^/]*\.js$/.test(p)), `the loader ran: ${scripts.join(', ')}`);
  assert.ok(!scripts.some((p) => /\/preview-[^/]*\.js$/.test(p)), `no preview chunk: ${scripts.join(', ')}`);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.preview), undefined);
  await context.close();
});
