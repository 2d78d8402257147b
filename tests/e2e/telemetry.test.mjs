// Browser end-to-end test of visitor telemetry: starts the `veranda` binary named by
// VERANDA_BIN (after creating an owner account in its fresh data dir) with the demo site,
// throws an error in a demo page in Debian's Chromium, and reads the error record and its
// group back through `GET /api/events/errors` as the signed-in owner. It also checks the
// page's `RecordHit`: not sent at all without consent (the demo site has the restrictive
// cookie policy on), and with consent answered 2xx with `ss_cvr` set.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda npm test
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { assertStopsCleanly, cookieHeaderOf, quietContext, signIn, useServer } from './support.mjs';

const OWNER = { email: 'owner@example.com', password: 'porch-swing-lantern-42' };
const MESSAGE = 'porch light flickered';

const env = useServer({ name: 'telemetry', owner: OWNER });
const { serverLog } = env;

/** Signs the owner in; gives the `Cookie` header of the session. */
async function ownerCookie() {
  return cookieHeaderOf(await signIn(env.base, OWNER));
}

/** Polls `GET /api/events/errors` as the owner (≤ 10 s) until `found` gives a value. */
async function pollErrors(cookie, found) {
  const deadline = Date.now() + 10_000;
  let last = null;
  while (Date.now() < deadline) {
    const res = await fetch(`${env.base}/api/events/errors`, { headers: { Cookie: cookie } });
    assert.equal(res.status, 200, 'GET /api/events/errors as the owner');
    last = await res.json();
    const value = found(last);
    if (value) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`no matching error within 10 s; last answer: ${JSON.stringify(last)}${serverLog()}`);
}

/** Opens `/` in `context`; gives the page and the `RecordHit` response. */
async function openHome(context) {
  const page = await context.newPage();
  const hit = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/census/RecordHit', { timeout: 10_000 });
  const response = await page.goto(`${env.base}/`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, 'GET /');
  return { page, hit: await hit };
}

/** The values a Playwright response sets, by cookie name. */
async function responseSetCookies(response) {
  const lines = (await response.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value);
  return new Map(lines.flatMap((l) => l.split('\n')).map((line) => {
    const pair = line.split(';')[0];
    const at = pair.indexOf('=');
    return [pair.slice(0, at).trim(), decodeURIComponent(pair.slice(at + 1).trim())];
  }));
}

test('an error thrown in a demo page is recorded and grouped, and the owner sees both', { timeout: 60_000 }, async () => {
  const context = await quietContext(env);
  // The demo site's restrictive cookie policy sends no telemetry before consent.
  await context.addCookies([{ name: 'ss_cookieAllowed', value: 'true', url: env.base }]);
  const { page } = await openHome(context);
  const sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/events/RecordJavascriptErrors', { timeout: 10_000 });
  const before = Date.now();
  await page.evaluate(() => setTimeout(() => { throw new Error('porch light flickered'); }));
  const answer = await sent;
  assert.equal(answer.status(), 202, `RecordJavascriptErrors: ${await answer.text()}`);
  const request = JSON.parse(answer.request().postData() ?? '[]');
  assert.equal(request.length, 1);
  assert.equal(request[0].event, 'javascript-error');
  assert.equal(request[0].data.message, MESSAGE);

  const cookie = await ownerCookie();
  const { group, record } = await pollErrors(cookie, (list) => {
    const group = list.groups?.find((g) => g.message === MESSAGE);
    const record = list.records?.find((r) => r.message === MESSAGE);
    return group && record ? { group, record } : null;
  });
  assert.equal(record.event, 'javascript-error');
  assert.equal(record.url, `${env.base}/`);
  assert.equal(record.app, 'loader');
  assert.match(record.userAgent, /Chrom/);
  assert.match(record.stack, /porch light flickered/);
  assert.equal(record.fingerprint, group.fingerprint, 'the record belongs to the group');
  assert.equal(group.count, 1);
  assert.equal(group.lastUrl, `${env.base}/`);
  assert.ok(Number.isInteger(group.firstSeen) && group.firstSeen >= before - 1000, `firstSeen ${group.firstSeen}`);
  assert.ok(group.lastSeen >= group.firstSeen && group.lastSeen <= Date.now() + 1000, `lastSeen ${group.lastSeen}`);
  await context.close();
});

test('RecordHit is sent only with consent, answered 2xx and sets ss_cvr', { timeout: 60_000 }, async () => {
  const refused = await quietContext(env);
  const plainPage = await refused.newPage();
  const plainHits = [];
  plainPage.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/census/RecordHit') plainHits.push(r.url());
  });
  await plainPage.goto(`${env.base}/`, { waitUntil: 'load' });
  await plainPage.waitForLoadState('networkidle');
  assert.deepEqual(plainHits, [], 'no RecordHit without consent');
  const plainCookies = (await refused.cookies()).map((c) => c.name);
  assert.ok(!plainCookies.includes('ss_cvr') && !plainCookies.includes('ss_cvt'), `cookies: ${plainCookies.join(', ')}`);
  await refused.close();

  const allowed = await quietContext(env);
  await allowed.addCookies([{ name: 'ss_cookieAllowed', value: 'true', url: env.base }]);
  const { hit } = await openHome(allowed);
  assert.ok(hit.status() >= 200 && hit.status() < 300, `RecordHit with consent: ${hit.status()}`);
  const cvr = (await responseSetCookies(hit)).get('ss_cvr');
  assert.match(cvr ?? '', /^[\w-]+\|[1-9]\d*\|[1-9]\d*\|[1-9]\d*\|1$/, 'the server sets a first-visit ss_cvr');
  const stored = (await allowed.cookies()).find((c) => c.name === 'ss_cvr');
  assert.ok(stored, 'the browser keeps ss_cvr');
  assert.equal(decodeURIComponent(stored.value), cvr, 'the loader and the server agree on ss_cvr');
  await allowed.close();
});

test('the server stops cleanly on SIGTERM', { timeout: 60_000 }, async () => {
  await assertStopsCleanly(env);
});
