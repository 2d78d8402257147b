// Browser end-to-end tests of the page runtime's life (spec 000 §4 "Page initialisation", §8
// "Chunk loading"): starts the binary named by VERANDA_BIN with the demo site in Debian's
// Chromium.
// - The loader started a second time on an initialised page logs 'Detected second run, this
//   is bad.' and starts nothing twice.
// - An island whose chunk cannot be fetched is tried twice (the second time afresh), then fails
//   with 'Loading chunk failed', and the system error overlay says the page cannot connect.
//
//   cd tests/e2e && VERANDA_BIN=../../target/debug/veranda node --test runtime.test.mjs
//
// It builds nothing: the binary and the client (`client/dist` or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { DIST, eventually, quietContext, useServer, watchedPage } from './support.mjs';

const env = useServer({ name: 'runtime' });

/** The built file of source `src` (relative to `client/`), from Vite's manifest. */
function builtFile(src) {
  const manifest = JSON.parse(readFileSync(join(DIST, '.vite', 'manifest.json'), 'utf8'));
  const entry = manifest[src];
  assert.ok(entry, `the manifest has no ${src}`);
  return entry.file;
}

test("the loader started twice logs 'Detected second run, this is bad.'", { timeout: 60_000 }, async () => {
  const context = await quietContext(env, {}, { consent: true });
  const { page, console, errors } = await watchedPage(context);
  await page.goto(`${env.base}/about`, { waitUntil: 'load' });
  await page.waitForFunction(() => window.Veranda?.lifecycle?.isInitialised === true);
  const loader = builtFile('src/loader/index.ts');
  // A second copy of the loader module (another URL is another module) on the same page.
  await page.evaluate((src) => import(`/${src}?again`), loader);
  await eventually(() => console.some((line) => line === 'error: Detected second run, this is bad.'), 'no second-run message');
  assert.deepEqual(errors, []);
  await context.close();
});

test("an island chunk that cannot be fetched fails with 'Loading chunk failed' and the unable-to-connect overlay", { timeout: 60_000 }, async () => {
  const context = await quietContext(env, {}, { consent: true });
  const file = builtFile('src/islands/accordion/index.ts');
  const tried = [];
  await context.route(
    (url) => url.pathname === `/${file}`,
    (route) => {
      const url = new URL(route.request().url());
      tried.push(`${route.request().method()} ${url.search}`.trim());
      return route.abort('internetdisconnected');
    },
  );
  const { page, console } = await watchedPage(context);
  await page.goto(`${env.base}/about`, { waitUntil: 'load' });
  const island = page.locator('[data-island="accordion"]').first();
  await island.scrollIntoViewIfNeeded();
  await eventually(async () => (await island.getAttribute('data-island-state')) === 'failed', 'the island did not fail');
  // Tried, tried afresh (browsers remember a failed module), then probed to tell why.
  assert.deepEqual(tried, ['GET', 'GET ?retry=1', 'HEAD ?retry=1']);
  assert.ok(
    console.some((line) => line.startsWith('error: Veranda: the accordion island could not start.') && line.includes('Loading chunk failed')),
    `no 'Loading chunk failed' in the console:\n${console.join('\n')}`,
  );
  const dialog = page.getByRole('dialog', { name: 'Something Went Wrong' });
  await dialog.waitFor({ timeout: 10_000 });
  assert.match(await dialog.textContent(), /Unable to connect…/);
  await context.close();
});
