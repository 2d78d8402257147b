// Shared by the browser tests: paths, Chromium's flags, free ports, the server and browser of a
// test file (`useServer`), contexts with no outside network (`quietContext`), and waiting for
// the page rather than racing it (`eventually`, `resizeViewport`).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

/** The repository's root folder. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The built client: `client/dist`, or the folder named by VERANDA_DIST (a build made elsewhere). */
export const DIST = process.env.VERANDA_DIST ? resolve(process.env.VERANDA_DIST) : join(ROOT, 'client', 'dist');
/** The demo site's folder. */
export const DEMO_SITE = join(ROOT, 'config', 'sites', 'demo');

/**
 * A copy of the demo site in a new folder under `parent`, with `settingsToml` appended to its
 * `site.toml` (a table such as `[maps]` the demo does not have). Gives the copy's folder.
 */
export async function demoSiteWith(parent, settingsToml) {
  const site = join(parent, 'site');
  await cp(DEMO_SITE, site, { recursive: true });
  await appendFile(join(site, 'site.toml'), `\n${settingsToml}\n`);
  return site;
}

/** A copy of the demo site under `parent` with one more page, `pages/${name}.toml` holding `pageToml`. */
export async function demoSiteWithPage(parent, name, pageToml) {
  const site = await demoSiteWith(parent, '');
  await writeFile(join(site, 'pages', `${name}.toml`), pageToml);
  return site;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** The axe-core rules every check runs: WCAG 2.0–2.2 A and AA, and best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe-core's violations in `page`, one line per node: over the whole document, or over `within`
 * (a selector, or axe's `{ include, exclude }` of selectors), with the rules of `tags`.
 */
export async function axe(page, within = null, tags = AXE_TAGS) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  await settled(page);
  const violations = await page.evaluate(
    ([scope, t]) => window.axe.run(scope ?? document, { runOnly: { type: 'tag', values: t } }).then((r) => r.violations),
    [within, tags],
  );
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));
}

/**
 * Waits until no animation with an end is running (at most 5 s), so that axe reads colours
 * as they end up: a block still fading in (a block animation) is half transparent, and its
 * text would be measured paler than it is. Endless ones (a marquee) are not waited for.
 */
async function settled(page) {
  // Polled from here rather than awaited in the page: a test may have the page's timers
  // and animation frames on a fake clock.
  const running = () =>
    page.evaluate(() => document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity));
  for (let waited = 0; waited < 5_000 && (await running()); waited += 50) await new Promise((done) => setTimeout(done, 50));
}

/** Debian's Chromium, headless, with nothing that reaches for the network on its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A free TCP port on 127.0.0.1 (listen on 0, read it, close). */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const socket = net.createServer();
    socket.unref();
    socket.on('error', reject);
    socket.listen(0, '127.0.0.1', () => {
      const { port } = socket.address();
      socket.close(() => resolvePort(port));
    });
  });
}

/**
 * The binary named by VERANDA_BIN, and the environment to start it with: the server reads every
 * VERANDA_* variable as a setting, so it gets only its own.
 */
export function veranda() {
  const bin = process.env.VERANDA_BIN;
  assert.ok(bin, 'set VERANDA_BIN to the built veranda binary (e.g. ../../target/debug/veranda)');
  const binPath = resolve(process.cwd(), bin);
  assert.ok(existsSync(binPath), `${binPath} does not exist: build it first (make rust-build)`);
  const { VERANDA_BIN: _, ...serverEnv } = process.env;
  return { binPath, serverEnv };
}

/**
 * Helpers bound to a test file's `env` (which has `output: []` and `exited`): keep the server's last
 * 200 lines, format them for failure messages, and wait for its readiness probe.
 */
export function serverHelpers(env) {
  function keepOutput(stream) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      env.output.push(...chunk.split('\n').filter(Boolean));
      env.output.splice(0, Math.max(0, env.output.length - 200));
    });
  }

  function serverLog() {
    return `\n--- server output ---\n${env.output.join('\n')}`;
  }

  /** Polls the ops listener's readiness probe for up to 30 s. */
  async function waitReady(opsBase) {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (env.exited) throw new Error(`veranda exited early (${JSON.stringify(env.exited)})${serverLog()}`);
      try {
        const res = await fetch(`${opsBase}/health/ready`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`veranda did not become ready within 30 s${serverLog()}`);
  }

  /**
   * Serves `site` (the demo site unless given) from `env.dataDir` on free ports; sets `env.server`
   * and `env.base`.
   */
  async function startServer(binPath, serverEnv, site = DEMO_SITE) {
    const [port, opsPort] = [await freePort(), await freePort()];
    env.base = `http://127.0.0.1:${port}`;
    env.server = spawn(
      binPath,
      ['serve', '--listen', `127.0.0.1:${port}`, '--ops-listen', `127.0.0.1:${opsPort}`,
        '--data-dir', env.dataDir, '--site', site],
      { cwd: ROOT, env: { ...serverEnv, VERANDA_ASSETS_DIR: DIST }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    keepOutput(env.server.stdout);
    keepOutput(env.server.stderr);
    env.server.on('exit', (code, signal) => {
      env.exited = { code, signal };
    });
    await waitReady(`http://127.0.0.1:${opsPort}`);
  }

  /** Closes the browser, kills a server still running, removes the data dir. */
  async function stopAll() {
    await env.browser?.close();
    if (env.server && !env.exited) env.server.kill('SIGKILL');
    if (env.dataDir) await rm(env.dataDir, { recursive: true, force: true });
  }

  return { keepOutput, serverLog, waitReady, startServer, stopAll };
}

/**
 * Runs `veranda user add` for `account` (`{ email, password, role }`, password on stdin) against
 * `dataDir`; resolves when it exits 0 (at most 30 s). The store is single-process: call it before
 * the server opens the data dir.
 */
export function addAccount(binPath, serverEnv, dataDir, { email, password, role }) {
  return new Promise((resolveAdd, reject) => {
    const child = spawn(binPath, ['user', 'add', '--email', email, '--role', role, '--data-dir', dataDir], {
      cwd: ROOT,
      env: serverEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolveAdd();
      else reject(new Error(`veranda user add exited with ${code ?? signal}:\n${output}`));
    });
    child.stdin.end(`${password}\n`);
  });
}

/** The `name=value` pairs of a response's `Set-Cookie` headers (Node fetch), by name. */
export function setCookies(res) {
  return new Map(res.headers.getSetCookie().map((line) => {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
  }));
}

/** A `Cookie` header of `cookies` (a Map by name). */
export function cookieHeaderOf(cookies) {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/**
 * Signs `account` in at `base` the way the site's scripts do: a page GET gives the crumb cookie,
 * the session POST echoes it in `X-CSRF-Token`. Gives every cookie set on the way, by name.
 */
export async function signIn(base, { email, password }) {
  const page = await fetch(`${base}/`);
  assert.equal(page.status, 200, 'GET / for the crumb');
  const crumb = setCookies(page).get('crumb');
  assert.ok(crumb, 'a page GET sets the crumb cookie');
  const cookies = new Map([['crumb', crumb]]);
  const res = await fetch(`${base}/api/site-users/account/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookieHeaderOf(cookies), 'X-CSRF-Token': decodeURIComponent(crumb) },
    body: JSON.stringify({ email, password, rememberMe: false }),
  });
  assert.equal(res.status, 200, `sign-in of ${email}: ${await res.clone().text()}`);
  for (const [name, value] of setCookies(res)) cookies.set(name, value);
  return cookies;
}

/**
 * `method path` of `env.base` with `body` as JSON, as the holder of `env.cookies` (the signed-in
 * owner of `useServer`), the crumb echoed in `X-CSRF-Token` as the site's scripts do.
 */
export function fetchAs(env, method, path, body) {
  return fetch(`${env.base}${path}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      Cookie: cookieHeaderOf(env.cookies),
      'X-CSRF-Token': decodeURIComponent(env.cookies.get('crumb')),
    },
    body: JSON.stringify(body),
  });
}

/**
 * Registers the `before`/`after` hooks of a test file and gives its `env`, filled in by `before`:
 * a fresh data dir (`env.dataDir`), the accounts made in it before the server opens the store
 * (`owner`, then `accounts`, each `{ email, password }`, `role` for `accounts`), `veranda serve`
 * on free ports (`env.base`, `env.server`, `env.exited`, `env.output`) with the demo site, or the
 * folder `site(dataDir)` gives, and the `VERANDA_*` settings of `settings`; with `signedIn`, the
 * owner signed in (`env.cookies`, by name); Debian's Chromium (`env.browser`). `after` closes
 * the browser, kills the server and removes the data dir. `env.serverLog()` is the server's last
 * lines for failure messages; `extra` is merged into `env` (a file's own state); `ready(env)`
 * runs last in the same hook (a file's own set-up: top-level hooks of one file may run at the
 * same time, so a second `before` could not count on the server).
 */
export function useServer({ name = 'e2e', owner, signedIn = false, accounts = [], site, settings = {}, extra = {}, ready } = {}) {
  const env = { server: null, exited: null, output: [], base: '', dataDir: '', browser: null, cookies: new Map(), ...extra };
  const { serverLog, startServer, stopAll } = serverHelpers(env);
  env.serverLog = serverLog;
  before(async () => {
    const { binPath, serverEnv } = veranda();
    assert.ok(existsSync(join(DIST, '.vite', 'manifest.json')), 'build the client first (cd client && npm ci && npm run build)');
    env.dataDir = await mkdtemp(join(tmpdir(), `veranda-e2e-${name}-`));
    // The store is single-process: accounts are made before the server opens it.
    for (const account of [...(owner ? [{ ...owner, role: 'owner' }] : []), ...accounts]) {
      await addAccount(binPath, serverEnv, env.dataDir, account);
    }
    const siteDir = site ? await site(env.dataDir) : DEMO_SITE;
    await startServer(binPath, { ...serverEnv, ...settings }, siteDir);
    if (owner && signedIn) env.cookies = await signIn(env.base, owner);
    env.browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    await ready?.(env);
  });
  after(stopAll);
  return env;
}

/**
 * A browser context (`options` as for `browser.newContext`) in which requests leaving this
 * machine are answered empty: a document (a frame's page) gets an empty 200 page, since a
 * document answered 204 is a failed (aborted) navigation the page would report; anything else
 * gets 204. `data:` and `blob:` URLs load as usual. `local(url, request)` sees each request
 * to the server; `outside(route, url)` may answer an outside request itself (it returns the
 * route's promise) or leave it to the default (it returns nothing). With `consent` (true or
 * false) the cookie banner is already answered that way; `cookies` (name → value, such as
 * `env.cookies`) are set for the server's address.
 */
export async function quietContext(env, options = {}, { local, outside, consent, cookies } = {}) {
  const context = await env.browser.newContext(options);
  if (cookies) await context.addCookies([...cookies].map(([name, value]) => ({ name, value, url: env.base })));
  if (consent !== undefined) {
    await context.addCookies([
      { name: 'ss_cookieAllowed', value: String(consent), url: env.base },
      { name: 'ss_cookieBannerVersion', value: '2', url: env.base },
    ]);
  }
  const origin = new URL(env.base).origin;
  await context.route('**/*', (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (url.origin === origin) {
      local?.(url, request);
      return route.fallback();
    }
    if (url.protocol === 'data:' || url.protocol === 'blob:') return route.fallback();
    const answered = outside?.(route, url);
    if (answered) return answered;
    if (request.resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: '' });
    return route.fulfill({ status: 204, body: '' });
  });
  return context;
}

/**
 * A page in a fresh `quietContext` (`options` as for `browser.newContext`) that keeps its page
 * errors and console errors in `problems`.
 */
export async function problemPage(env, options = {}) {
  const context = await quietContext(env, options);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  return { context, page, problems };
}

/** Opens `path` of `env.base` in a new page of `context`, expects 200, and waits until the network is quiet. */
export async function openSettled(env, context, path) {
  const page = await context.newPage();
  const response = await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, `GET ${path}${env.serverLog()}`);
  await page.waitForLoadState('networkidle');
  return page;
}

/** A new page of `context` and what it reports: uncaught `errors`, and every `console` line as `type: text`. */
export async function watchedPage(context) {
  const page = await context.newPage();
  const errors = [];
  const console = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  return { page, errors, console };
}

/** Asserts that the server of `env` is still running, then that it exits 0 on SIGTERM. */
export async function assertStopsCleanly(env) {
  assert.equal(env.exited, null, `the server died during the tests${env.serverLog()}`);
  const exit = new Promise((r) => env.server.once('exit', (code, signal) => r({ code, signal })));
  env.server.kill('SIGTERM');
  const { code, signal } = await exit;
  assert.deepEqual({ code, signal }, { code: 0, signal: null }, `exit after SIGTERM${env.serverLog()}`);
}

/**
 * Polls `check` (on real time, from this process) until it gives a truthy value, which it
 * returns; fails with `message` after `timeout` ms. `step`, when given, runs between two checks
 * (e.g. advancing a page's held clock, so a timer set late still runs).
 */
export async function eventually(check, message, { timeout = 15_000, step } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail(typeof message === 'function' ? message() : message);
    if (step) await step();
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs `visit` on every item, `width` at a time (two by default: one page's wait for the network
 * to go quiet overlaps another's work), and resolves to their results in the items' order.
 * A visit that throws fails the whole call, as a loop would.
 */
export async function visitAll(items, visit, { width = 2 } = {}) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await visit(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/**
 * Sets the page's viewport to `size` and resolves once the page has handled the `resize`
 * event it causes (listeners the page added earlier have run), so a debounce timer the page
 * starts on resize exists before a test advances the clock.
 */
export async function resizeViewport(page, size) {
  await page.evaluate(() => {
    window.__verandaResized = new Promise((r) => window.addEventListener('resize', () => r(true), { once: true }));
  });
  await page.setViewportSize(size);
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no resize event within 10 s of resizing to ${size.width} px`)), 10_000);
  });
  try {
    await Promise.race([page.evaluate(() => window.__verandaResized), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Opens `path` of `env.base` in a fresh context whose timers run only when the test says
 * so (`context.clock`: autoplay and transitions are then deterministic, and a site's popup
 * overlay never comes up by itself). Requests leaving this machine get an empty answer (an
 * empty page for frames). Gives the context, the page and every page error and console error.
 */
export async function openClockedPage(env, path, viewport = { width: 1200, height: 900 }) {
  const context = await quietContext(env, { viewport });
  await context.clock.install({ time: Date.now() });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
  return { context, page, errors };
}

/**
 * Asserts that the map `block` gave up and shows its address fallback: no map canvas, a
 * visible fallback link, the warning on the console and no page error.
 */
export async function assertMapFallback(block, console, errors) {
  await block.locator('.map.map--failed').waitFor({ state: 'attached', timeout: 20_000 });
  assert.equal(await block.locator('.map-canvas').count(), 0);
  assert.ok(await block.locator('.map-fallback a').isVisible());
  assert.ok(console.some((line) => line.startsWith('warning: Veranda: the map could not be shown')), console.join('\n'));
  assert.deepEqual(errors, []);
}

/**
 * Signs `address` up through the newsletter form (its email `input`) in the popup overlay
 * `dialog` of `page`:
 * asserts the save call is the newsletter's, sent as an overlay form, and that the dialog
 * thanks the visitor; gives the save call's body. Waits for the overlay's form to be mounted
 * first: the form is shown while its island's module still loads, and a click before then is
 * the plain form post (which carries no `isOverlayForm`).
 */
export async function signUpInOverlay(page, dialog, input, address) {
  await dialog.locator('[data-island-state="mounted"]').waitFor({ timeout: 10_000 });
  await input.fill(address);
  const saved = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/form/SaveFormSubmission', { timeout: 10_000 });
  await dialog.getByRole('button', { name: 'Sign me up' }).click();
  const body = (await saved).postDataJSON();
  assert.equal(body.formId, 'newsletter');
  assert.equal(body.isOverlayForm, true);
  await dialog.getByText("You're on the list. See you on the porch!").waitFor({ timeout: 10_000 });
  return body;
}
