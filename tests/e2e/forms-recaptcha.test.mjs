// Browser end-to-end test of forms on a reCAPTCHA site and of form redirects. A stand-in for
// the provider runs on this machine (the test's own HTTP server): its `grecaptcha` script draws
// an 'I'm not a robot' checkbox whose token is `good-token` (or what the page sets in
// `window.__standInToken`), and its siteverify accepts `good-token` with the test's secret. The
// binary named by VERANDA_BIN serves a copy of the demo site set to reCAPTCHA with a site key,
// its `[forms]` settings pointing at the stand-in, and the stand-in's origin allowed as a
// success redirect. In Debian's Chromium:
// - the contact form loads the stand-in script with the site key and sends the widget's token:
//   a rejected token shows the error and resets the widget, a good one sends the form;
// - a form whose success redirect is on the allowed origin sends the visitor there, with and
//   without JavaScript; a save answer naming any other place is not followed.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test forms-recaptcha.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { demoSiteWith, freePort, quietContext, useServer } from './support.mjs';

const SITE_KEY = 'e2e-site-key';
const SECRET = 'e2e-secret';
const REFUSED = 'The CAPTCHA could not be verified. Please complete the CAPTCHA again.';
const SUCCESS_TEXT = "Thank you! We'll write back soon.";
const FORM = '[data-island="form"]';

/** The stand-in `grecaptcha` (explicit rendering; calls the page's onload callback). */
const STAND_IN_SCRIPT = `(() => {
  const widgets = [];
  window.__standInRendered = [];
  window.__standInResets = 0;
  window.grecaptcha = {
    render(container, params) {
      const id = widgets.length;
      window.__standInRendered.push(params.sitekey);
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.className = 'stand-in-recaptcha';
      box.addEventListener('change', () => {
        if (box.checked) params.callback(window.__standInToken || 'good-token');
      });
      label.append(box, " I'm not a robot");
      container.append(label);
      widgets.push(box);
      return id;
    },
    reset(id) {
      window.__standInResets += 1;
      widgets[id].checked = false;
    },
  };
  const onload = new URL(document.currentScript.src).searchParams.get('onload');
  if (onload && typeof window[onload] === 'function') window[onload]();
})();`;

/** The stand-in provider and shop: script, siteverify, and the shop's thank-you page. */
function startStandIn(port) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, `http://127.0.0.1:${port}`);
    if (req.method === 'GET' && url.pathname === '/recaptcha/api.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(STAND_IN_SCRIPT);
    } else if (req.method === 'POST' && url.pathname === '/recaptcha/api/siteverify') {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const success = form.get('secret') === SECRET && form.get('response') === 'good-token';
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(success ? { success } : { success, 'error-codes': ['invalid-input-response'] }));
      });
    } else if (req.method === 'GET' && url.pathname === '/thanks') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>Shop</title><main><h1>Thanks from the shop</h1></main></html>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const standInPort = await freePort();
const STAND_IN = `http://127.0.0.1:${standInPort}`;
const standIn = await startStandIn(standInPort);
after(() => standIn.close());

/** A page of one form (no captcha) whose success redirect is the shop's thank-you page. */
const REDIRECT_PAGE = `id = "7e1d0c0ffee0000000000001"
url = "/order-beans"
title = "Order beans"

[[blocks]]
kind = "form"
id = "7e1d0c0ffee0000000000002"
formId = "order-beans"
title = "Order beans from the shop"
submitButtonText = "Order"
successMessage = "Ordered."
successRedirect = "${STAND_IN}/thanks"

[[blocks.fields]]
id = "email"
type = "email"
title = "Email"
required = true
`;

const env = useServer({
  name: 'forms-recaptcha',
  site: async (dataDir) => {
    const site = await demoSiteWith(dataDir, `[forms]\nredirectAllowList = ["${STAND_IN}"]`);
    const file = join(site, 'site.toml');
    const text = await readFile(file, 'utf8');
    assert.ok(text.includes('[captcha]\nprovider = "altcha"'), 'the demo site names its captcha');
    await writeFile(file, text.replace('[captcha]\nprovider = "altcha"', `[captcha]\nprovider = "recaptcha"\nsiteKey = "${SITE_KEY}"`));
    await writeFile(join(site, 'pages', 'order-beans.toml'), REDIRECT_PAGE);
    return site;
  },
  settings: {
    VERANDA_FORMS: `{recaptcha_secret="${SECRET}", recaptcha_verify_url="${STAND_IN}/recaptcha/api/siteverify", recaptcha_script_url="${STAND_IN}/recaptcha/api.js"}`,
  },
});
const { serverLog } = env;

/** A page in a context where only this machine answers (the stand-in included); errors kept. */
async function newPage(options = {}) {
  const context = await quietContext(env, options, { outside: (route, url) => (url.origin === STAND_IN ? route.fallback() : undefined) });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (msg) => {
    // A refused submission is an HTTP error the browser logs: expected here.
    if (msg.type() === 'error' && !/status of 400/.test(msg.text())) problems.push(`console error: ${msg.text()}`);
  });
  return { context, page, problems };
}

test('the contact form loads the provider script with the site key, resets after a rejected token and sends a good one', { timeout: 90_000 }, async () => {
  const { context, page, problems } = await newPage();
  const response = await page.goto(`${env.base}/contact`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200);
  const block = page.locator(FORM).first();
  await block.scrollIntoViewIfNeeded();
  const widget = block.locator('input.stand-in-recaptcha');
  await widget.waitFor({ timeout: 15_000 });
  const script = await page.evaluate(() => [...document.scripts].map((s) => s.src).find((src) => src.includes('/recaptcha/api.js')));
  const url = new URL(script);
  assert.equal(url.origin, STAND_IN, 'the script comes from the configured address');
  assert.equal(url.searchParams.get('render'), 'explicit');
  assert.deepEqual(await page.evaluate(() => window.__standInRendered), [SITE_KEY], 'the widget is rendered with the site key');
  assert.equal(await block.locator('.captcha input[type="checkbox"]:not(.stand-in-recaptcha)').count(), 0, 'no ALTCHA check');

  await block.getByLabel('First Name').fill('Ada');
  await block.getByLabel('Last Name').fill('Lovelace');
  await block.locator('input[name="email"]').fill('ada@example.com');
  await block.getByLabel('Subject').fill('Porch party');
  await block.locator('textarea[name="message"]').fill('Twelve guests on a Saturday.');
  await page.evaluate(() => {
    window.__standInToken = 'bad-token';
  });
  await widget.check();
  const send = block.getByRole('button', { name: 'Send message' });
  await send.click();
  const errors = block.locator('.form-errors').first();
  await page
    .waitForFunction(() => window.__standInResets === 1, null, { timeout: 10_000 })
    .catch(async (error) => assert.fail(`${error.message}; the form says: ${await errors.textContent()}${serverLog()}`));
  assert.equal(await errors.textContent(), REFUSED);
  assert.equal(await widget.isChecked(), false, 'the widget is reset');
  assert.equal(await send.isDisabled(), true, 'the button waits for the captcha again');

  await page.evaluate(() => {
    window.__standInToken = 'good-token';
  });
  await widget.check();
  await send.click();
  const success = block.locator('.form-success');
  await success.waitFor({ timeout: 10_000 });
  assert.ok((await success.textContent()).includes(SUCCESS_TEXT));
  assert.deepEqual(problems, [], serverLog());
  await context.close();
});

test('an allowed absolute redirect is followed by the island', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await newPage();
  await page.goto(`${env.base}/order-beans`, { waitUntil: 'load' });
  const block = page.locator(`${FORM}[data-island-state="mounted"]`);
  await block.waitFor({ timeout: 15_000 });
  await block.locator('input[name="email"]').fill('ada@example.com');
  await Promise.all([page.waitForURL(`${STAND_IN}/thanks`, { timeout: 10_000 }), block.getByRole('button', { name: 'Order' }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Thanks from the shop');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the same redirect is followed by a plain post without JavaScript', { timeout: 60_000 }, async () => {
  const { context, page } = await newPage({ javaScriptEnabled: false });
  await page.goto(`${env.base}/order-beans`, { waitUntil: 'load' });
  await page.locator('input[name="email"]').fill('grace@example.com');
  await Promise.all([page.waitForURL(`${STAND_IN}/thanks`, { timeout: 10_000 }), page.getByRole('button', { name: 'Order' }).click()]);
  assert.equal(await page.locator('h1').textContent(), 'Thanks from the shop');
  await context.close();
});

test('a save answer naming a place that is not allowed is not followed', { timeout: 60_000 }, async () => {
  for (const redirectUrl of ['//evil.example/thanks', 'javascript:alert(1)', 'https://shop@evil.example/']) {
    const { context, page, problems } = await newPage();
    await page.route('**/api/form/SaveFormSubmission**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, redirectUrl }) }),
    );
    await page.goto(`${env.base}/order-beans`, { waitUntil: 'load' });
    const block = page.locator(`${FORM}[data-island-state="mounted"]`);
    await block.waitFor({ timeout: 15_000 });
    await block.locator('input[name="email"]').fill('ada@example.com');
    await block.getByRole('button', { name: 'Order' }).click();
    await block.locator('.form-success').waitFor({ timeout: 10_000 });
    assert.equal(page.url(), `${env.base}/order-beans`, `${redirectUrl} is not followed`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});
