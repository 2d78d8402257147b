// Browser end-to-end tests: starts the `veranda` binary named by VERANDA_BIN on free ports
// with a fresh data dir and the demo site, then drives Debian's Chromium through every page
// of the sitemap and the special pages, with JavaScript on and off.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda npm test
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';

import { DIST, assertStopsCleanly, quietContext, useServer, visitAll } from './support.mjs';

const MISSING_PAGE = '/no-such-page-e2e';
const SPECIAL_PAGES = ['/private', '/members', '/?logout=true', '/search?q=coffee'];

/** The running server, the browser and what the tests learn along the way. */
const env = useServer({
  name: 'pages',
  extra: {
    /** Paths (with query) to visit, each with the status expected. */
    pages: [],
    /** The built client, from Vite's manifest. */
    client: null,
    /** URLs outside this machine that pages asked for (answered empty: tests have no network). */
    external: new Set(),
  },
  ready: async () => {
    env.client = readClient();
    env.pages = [
      ...(await sitemapPaths()).map((path) => ({ path, status: 200 })),
      ...SPECIAL_PAGES.map((path) => ({ path, status: 200 })),
      { path: MISSING_PAGE, status: 404 },
    ];
  },
});

/**
 * The loader and dashboard files, the island and React chunks (`otherJs`: what a page without islands must
 * never download; the loader's own lazy telemetry chunks are not among them), and the island kinds.
 */
function readClient() {
  const path = join(DIST, '.vite', 'manifest.json');
  assert.ok(existsSync(path), `${path} is missing: build the client first (cd client && npm ci && npm run build)`);
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  const chunks = Object.entries(manifest);
  const loader = chunks.find(([, c]) => c.isEntry && c.name === 'loader');
  assert.ok(loader, 'the manifest has no loader entry');
  const dashboard = chunks.find(([, c]) => c.isEntry && c.name === 'dashboard');
  assert.ok(dashboard, 'the manifest has no dashboard entry');
  // The loader imports the island registry's chunk, which imports each island.
  const registry = manifest[(loader[1].dynamicImports ?? []).find((key) => key.endsWith('loader/island-chunks.ts'))];
  assert.ok(registry, 'the loader does not import the island registry (loader/island-chunks.ts)');
  const kindOf = (key) => key.match(/islands\/([^/]+)\//)?.[1];
  const islandKinds = (registry.dynamicImports ?? []).map(kindOf).filter(Boolean);
  assert.ok(islandKinds.includes('menu-tabs'), `the registry lists no menu-tabs island: ${islandKinds}`);
  const isReact = ([key, c]) => /(^|\/)react[-.]/.test(c.file) || key.includes('node_modules/react');
  const otherJs = chunks
    .filter(([key, c]) => key.includes('islands/') || isReact([key, c]))
    .map(([, c]) => `/${c.file}`)
    .filter((f) => f.endsWith('.js'));
  // The islands whose chunk brings React with it (the plain-DOM islands do not).
  const reactKeys = new Set(chunks.filter(isReact).map(([key]) => key));
  const bringsReact = (key, seen = new Set()) =>
    reactKeys.has(key) || (!seen.has(key) && (seen.add(key), (manifest[key]?.imports ?? []).some((k) => bringsReact(k, seen))));
  const reactKinds = (registry.dynamicImports ?? []).filter((key) => bringsReact(key)).map(kindOf).filter(Boolean);
  assert.ok(reactKinds.includes('menu-tabs'), `the menu-tabs island does not bring React: ${reactKinds}`);
  const reactJs = chunks.filter(isReact).map(([, c]) => `/${c.file}`);
  return { loaderJs: `/${loader[1].file}`, dashboardJs: `/${dashboard[1].file}`, otherJs, islandKinds, reactKinds, reactJs };
}

/** Paths of the sitemap's `<loc>` URLs, on our server. */
async function sitemapPaths() {
  const res = await fetch(`${env.base}/sitemap.xml`);
  assert.equal(res.status, 200, 'GET /sitemap.xml');
  const xml = await res.text();
  const locs = [...xml.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/g)].map((m) =>
    m[1].replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'"),
  );
  assert.ok(locs.length > 0, `the sitemap lists no URL:\n${xml}`);
  return [...new Set(locs.map((loc) => {
    const url = new URL(loc, env.base);
    return `${url.pathname}${url.search}`;
  }))];
}


/** A browser context in which requests that leave this machine get an empty answer; they are listed in `env.external`. */
const newContext = (options = {}) => quietContext(env, options, { outside: (_route, url) => void env.external.add(url.href) });

/**
 * Opens `path` in `context`, scrolls through it, and returns the page, the response and
 * every problem seen: console errors, page errors, failed requests and HTTP errors
 * (except the expected status of the document itself).
 */
async function open(context, path, status) {
  const page = await context.newPage();
  const url = `${env.base}${path}`;
  const problems = [];
  const scripts = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location()?.url ?? '';
    // The intentional 404 document is logged by Chromium as a failed resource: expected.
    if (status === 404 && where === url && msg.text().includes('404')) return;
    problems.push(`console error: ${msg.text()} (${where})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => {
    // An image the page stops wanting while it loads (a slideshow hides the slides it does not
    // show yet, and Chromium cancels their loads) is aborted, not broken: when that happens
    // depends on how fast the machine is. A missing image still shows as an HTTP error below.
    if (req.resourceType() === 'image' && req.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText})`);
  });
  page.on('response', (res) => {
    const isDocument = res.url() === url && res.request().isNavigationRequest();
    if (isDocument ? res.status() !== status : res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
    const resUrl = new URL(res.url());
    if (resUrl.origin === env.base && resUrl.pathname.endsWith('.js')) scripts.push(resUrl.pathname);
  });
  const response = await page.goto(url, { waitUntil: 'load' });
  assert.ok(response, `no response for ${path}`);
  assert.equal(response.status(), status, `status of ${path}`);
  await page.mouse.wheel(0, 100_000);
  await page.waitForLoadState('networkidle');
  return { page, response, problems, scripts };
}

test('every page loads in Chromium without console errors, page errors or failed requests', { timeout: 300_000 }, async (t) => {
  const context = await newContext();
  const visited = await visitAll(env.pages, async ({ path, status }) => {
    const { page, problems, scripts } = await open(context, path, status);
    const loaded = await page.evaluate(() => typeof window.Veranda === 'object' && window.Veranda.context !== null);
    if (!loaded) problems.push('the loader did not run or found no page context (window.Veranda.context)');
    if (!scripts.includes(env.client.loaderJs)) problems.push(`the loader script ${env.client.loaderJs} was not loaded`);

    // React (and every island chunk) is downloaded only by pages that have an island.
    const kinds = await page.$$eval('[data-island]', (els) => els.map((el) => el.getAttribute('data-island')));
    const islands = kinds.filter((k) => env.client.islandKinds.includes(k));
    const extra = scripts.filter((s) => env.client.otherJs.includes(s));
    if (islands.length === 0 && extra.length > 0) problems.push(`no island here, yet it downloaded ${extra.join(', ')}`);
    await page.close();
    return { path, status, islands, problems };
  });
  const failures = [];
  for (const { path, status, islands, problems } of visited) {
    t.diagnostic(`${status} ${path}${islands.length ? ` (islands: ${islands.join(', ')})` : ''}`);
    failures.push(...problems.map((p) => `${path}: ${p}`));
  }
  await context.close();
  if (env.external.size > 0) t.diagnostic(`requests leaving the machine (answered empty): ${[...env.external].join(', ')}`);
  assert.deepEqual(failures, []);
});

test('the home page downloads no React', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const { page, problems, scripts } = await open(context, '/', 200);
  const islands = await page.$$eval('[data-island]', (els) => els.map((el) => el.getAttribute('data-island')));
  const known = islands.filter((k) => env.client.reactKinds.includes(k));
  assert.deepEqual(known, [], `/ has React islands (${known.join(', ')}): pick a page with text, images and plain-DOM islands only`);
  assert.ok(scripts.includes(env.client.loaderJs), 'the loader runs on /');
  const heavy = scripts.filter((s) => env.client.reactJs.includes(s));
  assert.deepEqual(heavy, [], 'no React on /');
  assert.deepEqual(problems, []);
  await context.close();
});

test('visitAll gives every result in the items\' order, two visits at a time, and fails with a visit', async () => {
  let running = 0;
  let most = 0;
  const delays = [30, 5, 20, 1, 10];
  const results = await visitAll(delays, async (ms, i) => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, ms));
    running -= 1;
    return `${i}:${ms}`;
  });
  assert.deepEqual(results, ['0:30', '1:5', '2:20', '3:1', '4:10']);
  assert.equal(most, 2, 'two visits at a time');
  await assert.rejects(
    visitAll([1, 2, 3], async (n) => {
      if (n === 2) throw new Error('page 2 broke');
      return n;
    }),
    /page 2 broke/,
  );
});

test('the loader stays within its budget of 6 KB gzip (DESIGN.md)', () => {
  const bytes = gzipSync(readFileSync(join(DIST, env.client.loaderJs)), { level: 9 }).length;
  assert.ok(bytes <= 6 * 1024, `the loader is ${bytes} bytes gzip, over 6,144: move code into a lazy chunk`);
});

test('the menu page gets working tabs', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const { page, problems, scripts } = await open(context, '/menu', 200);
  const block = page.locator('[data-island="menu-tabs"]').first();
  await block.scrollIntoViewIfNeeded();
  const tabs = block.getByRole('tab');
  await tabs.first().waitFor({ timeout: 10_000 });
  assert.ok((await tabs.count()) >= 2, 'the demo menu has at least two tabs');
  assert.equal(await tabs.nth(0).getAttribute('aria-selected'), 'true');
  assert.equal(await block.getByRole('tabpanel').count(), 1, 'only the active panel is shown');

  await tabs.nth(0).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await tabs.nth(1).getAttribute('aria-selected'), 'true', 'ArrowRight selects the second tab');
  assert.equal(await tabs.nth(0).getAttribute('aria-selected'), 'false');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('role')), 'tab');
  const panel = block.getByRole('tabpanel');
  assert.equal(await panel.count(), 1);
  assert.equal(await panel.getAttribute('aria-labelledby'), await tabs.nth(1).getAttribute('id'));

  assert.ok(scripts.some((s) => env.client.otherJs.includes(s)), 'the island chunk was downloaded');
  assert.deepEqual(problems, []);
  await context.close();
});

test('pages read the site flags and keep a visitor in one A/B variant across loads', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const read = (page) =>
    page.evaluate(() => {
      const f = window.Veranda.features;
      return { columns: f.getNumber('menu-columns', 1), drawer: f.isEnabled('new-cart-drawer'), hero: f.getExperiment('home-hero', 'porch') };
    });
  const landing = await open(context, '/', 200);
  const before = await read(landing.page);
  assert.equal(before.columns, 3, 'the demo site sets menu-columns = 3');
  assert.equal(before.drawer, true);
  assert.deepEqual(before.hero, { variant: 'porch', segment: -1 }, 'no analytics id before consent (restrictive policy): the default');
  await landing.page.getByRole('region', { name: 'Cookie consent' }).getByRole('button', { name: 'Accept' }).click();
  const next = await open(context, '/about', 200);
  const first = await read(next.page);
  assert.ok(['porch', 'coffee'].includes(first.hero.variant), JSON.stringify(first.hero));
  assert.ok(first.hero.segment >= 0 && first.hero.segment < 100, `a visitor with an analytics id has a segment: ${JSON.stringify(first.hero)}`);
  const later = await open(context, '/menu', 200);
  assert.deepEqual((await read(later.page)).hero, first.hero, 'the same variant on the next page load');
  for (const { problems } of [landing, next, later]) assert.deepEqual(problems, []);
  await context.close();
});

test('the configuration area renders the dashboard around the preview frame', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const { page, problems, scripts } = await open(context, '/config/?frameUrl=%2Fmenu', 200);
  const root = page.locator('#dashboard-root');
  await root.getByRole('heading', { name: 'Configuration', exact: true }).waitFor({ timeout: 10_000 });
  assert.equal(await root.locator('iframe').getAttribute('src'), '/menu');
  assert.match(await root.innerText(), /Sign in to follow the live edits, errors and form submissions\./);
  assert.ok(scripts.includes(env.client.dashboardJs), 'the dashboard script was loaded');
  assert.deepEqual(problems, []);
  await context.close();
});

test('pages and the dashboard draw with the design tokens (000 §9: radii 0/4/8, font sizes 9.75 to 28, weights 400/500/600)', { timeout: 60_000 }, async () => {
  const context = await newContext();
  const { page, problems } = await open(context, '/', 200);
  const styles = await page.evaluate(() => {
    const css = (el) => getComputedStyle(el);
    const h1 = document.querySelector('main h1');
    const button = document.querySelector('.cookie-banner button');
    return {
      body: css(document.body).fontSize,
      h1: h1 && [css(h1).fontSize, css(h1).fontWeight],
      button: button && css(button).borderTopLeftRadius,
    };
  });
  assert.deepEqual(styles, { body: '16px', h1: ['28px', '600'], button: '4px' });
  const dashboard = await open(context, '/config/', 200);
  const radii = await dashboard.page.evaluate(() =>
    ['--radius-0', '--radius-1', '--radius-2'].map((name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim()),
  );
  assert.deepEqual(radii, ['0', '4px', '8px'], 'the dashboard inlines the tokens its popups and tooltips use');
  assert.deepEqual([...problems, ...dashboard.problems], []);
  await context.close();
});

test('without JavaScript every page has main text and working images', { timeout: 300_000 }, async (t) => {
  const context = await newContext({ javaScriptEnabled: false });
  // Each image URL is fetched once, whichever page shows it first.
  const checked = new Map();
  const found = await visitAll(env.pages, async ({ path, status }) => {
    const failures = [];
    const page = await context.newPage();
    const response = await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
    if (response?.status() !== status) failures.push(`${path}: status ${response?.status()}, expected ${status}`);
    const main = page.locator('main');
    if ((await main.count()) !== 1) {
      failures.push(`${path}: expected one <main>, found ${await main.count()}`);
    } else if ((await main.innerText()).trim() === '') {
      failures.push(`${path}: <main> has no text`);
    }
    const images = page.locator('main img');
    for (let i = 0; i < (await images.count()); i += 1) {
      const img = images.nth(i);
      const src = await img.getAttribute('src');
      const srcset = (await img.getAttribute('srcset')) ?? '';
      const urls = [src, ...srcset.split(',').map((c) => c.trim().split(/\s+/)[0])].filter(Boolean);
      if (urls.length === 0) failures.push(`${path}: an image in main has no src`);
      for (const raw of urls) {
        const url = new URL(raw, page.url()).href;
        if (!checked.has(url)) {
          const res = await context.request.get(url);
          checked.set(url, `${res.status()} ${res.headers()['content-type'] ?? ''}`);
        }
        const result = checked.get(url);
        if (!/^200 image\//.test(result)) failures.push(`${path}: image ${url} answered ${result}`);
      }
    }
    await page.close();
    return failures;
  });
  t.diagnostic(`${env.pages.length} pages, ${checked.size} image URLs checked`);
  await context.close();
  assert.deepEqual(found.flat(), []);
});

test('the server stops cleanly on SIGTERM', { timeout: 60_000 }, async () => {
  await assertStopsCleanly(env);
});
