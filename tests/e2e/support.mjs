// Shared by the browser tests: paths, Chromium's flags, free ports, and watching the server process.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, cp, rm } from 'node:fs/promises';
import net from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  assert.ok(existsSync(binPath), `${binPath} does not exist: build it first (cargo build -p veranda-server)`);
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
 * Opens `path` of `env.base` in a fresh context whose timers run only when the test says
 * so (`context.clock`: autoplay and transitions are then deterministic, and a site's popup
 * overlay never comes up by itself). Requests leaving this machine get an empty answer (an
 * empty page for frames). Gives the context, the page and every page error and console error.
 */
export async function openClockedPage(env, path, viewport = { width: 1200, height: 900 }) {
  const context = await env.browser.newContext({ viewport });
  await context.clock.install({ time: Date.now() });
  const origin = new URL(env.base).origin;
  await context.route('**/*', (route) => {
    if (route.request().url().startsWith(origin)) return route.fallback();
    if (route.request().resourceType() === 'document') return route.fulfill({ status: 200, contentType: 'text/html', body: '' });
    return route.fulfill({ status: 204, body: '' });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${env.base}${path}`, { waitUntil: 'load' });
  return { context, page, errors };
}
