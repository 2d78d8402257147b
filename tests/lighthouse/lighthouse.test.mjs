// Lighthouse with its default (mobile) preset over three demo pages — the home page, the shop and the gallery designs —
// in Debian's Chromium against a real `veranda serve`.
//
// The test holds what does not depend on the machine: accessibility scores 100 on every page.
// The performance score is printed and written to `LIGHTHOUSE_REPORT` (default
// `target/lighthouse.json`); it is recorded in benches/reports/client.md, never asserted, since it moves
// with the machine's load.
//
//   cd tests/lighthouse && npm ci && VERANDA_BIN=../../target/debug/veranda npm test
//
// It builds nothing: the binary and the client (`client/dist`, or VERANDA_DIST) must be built first.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

import { CHROMIUM_ARGS, DIST, ROOT, serverHelpers, veranda } from '../e2e/support.mjs';

const PAGES = ['/', '/shop', '/gallery-designs'];
const REPORT = process.env.LIGHTHOUSE_REPORT ?? join(ROOT, 'target', 'lighthouse.json');

const env = { server: null, exited: null, output: [], base: '', dataDir: '', browser: null };
const { serverLog, startServer, stopAll } = serverHelpers(env);
let chrome = null;
let profile = '';
const results = [];

before(async () => {
  const { binPath, serverEnv } = veranda();
  assert.ok(existsSync(join(DIST, '.vite', 'manifest.json')), 'build the client first (cd client && npm ci && npm run build)');
  env.dataDir = await mkdtemp(join(tmpdir(), 'veranda-lighthouse-'));
  await startServer(binPath, serverEnv);
  profile = await mkdtemp(join(tmpdir(), 'veranda-lighthouse-profile-'));
  chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    userDataDir: profile,
    logLevel: 'error',
  });
});

after(async () => {
  await chrome?.kill();
  if (profile) await rm(profile, { recursive: true, force: true });
  await stopAll();
  if (results.length > 0) {
    writeFileSync(REPORT, `${JSON.stringify({ preset: 'mobile', lighthouse: results[0].version, pages: results }, null, 2)}\n`);
  }
});

/** Lighthouse's performance and accessibility categories for `path`, with the failing audits. */
async function audit(path) {
  const runner = await lighthouse(`${env.base}${path}`, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  assert.ok(runner?.lhr, `Lighthouse gave no result for ${path}${serverLog()}`);
  const { lhr } = runner;
  assert.equal(lhr.runtimeError, undefined, `Lighthouse failed on ${path}: ${JSON.stringify(lhr.runtimeError)}`);
  const failing = lhr.categories.accessibility.auditRefs
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => `${a.id}: ${a.title}`);
  const metric = (id) => lhr.audits[id]?.numericValue ?? null;
  return {
    path,
    version: lhr.lighthouseVersion,
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    failingAccessibilityAudits: failing,
    metricsMs: {
      firstContentfulPaint: metric('first-contentful-paint'),
      largestContentfulPaint: metric('largest-contentful-paint'),
      totalBlockingTime: metric('total-blocking-time'),
      speedIndex: metric('speed-index'),
    },
    cumulativeLayoutShift: metric('cumulative-layout-shift'),
    transferBytes: metric('total-byte-weight'),
  };
}

for (const path of PAGES) {
  test(`${path}: Lighthouse (mobile) accessibility is 100`, async () => {
    const result = await audit(path);
    results.push(result);
    console.log(`lighthouse ${path}: performance ${result.performance}, accessibility ${result.accessibility}`, result.metricsMs);
    assert.deepEqual(result.failingAccessibilityAudits, [], `failing accessibility audits on ${path}`);
    assert.equal(result.accessibility, 100);
  });
}
