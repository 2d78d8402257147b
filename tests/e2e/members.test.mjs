// Browser end-to-end test of members and password pages: creates a member with `veranda user
// add` (password on stdin) in a fresh data dir, starts the binary named by VERANDA_BIN with the
// demo site, then in Debian's Chromium, with the keyboard alone:
// - a member signs in on the login page, opens /members, logs out from the header's control,
//   sees the 'Logout Successful' dialog, and /members is closed again;
// - a visitor opens the login prompt from /members' link, signs in there, and is back on /members;
// - /private stays locked with a wrong password and opens with `veranda`.
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test members.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { useServer } from './support.mjs';

const MEMBER = { email: 'member@example.com', password: 'lantern-porch-swing-7' };
const MEMBERS_ONLY = 'This page available only site members';
const LOCKED = 'This page is locked';
const WRONG_PASSWORD = 'That password is incorrect. Please try again.';

const env = useServer({ name: 'members', accounts: [{ ...MEMBER, role: 'member' }] });
const { serverLog } = env;

/** A page in a fresh browser context that records console and page errors. */
async function freshPage() {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    // A refused sign-in or unlock is an HTTP error the browser logs, and so is the favicon
    // Chromium asks for on its own (the demo site has none): both expected here.
    const where = msg.location()?.url ?? '';
    if (msg.type() !== 'error' || /status of 40[13]/.test(msg.text()) || where.endsWith('/favicon.ico')) return;
    problems.push(`console: ${msg.text()} (${where})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/** Presses Tab until the focused element matches `selector` (at most 40 presses). */
async function tabTo(page, selector) {
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  assert.fail(`Tab never reached ${selector}${serverLog()}`);
}

const mainText = (page) => page.locator('main').innerText();

/** Presses Enter and waits for the document answer to `method path` and its load. */
async function enterAndLoad(page, method, path) {
  const answered = page.waitForResponse(
    (res) => res.request().isNavigationRequest() && res.request().method() === method && new URL(res.url()).pathname === path,
  );
  await page.keyboard.press('Enter');
  await answered;
  await page.waitForLoadState('load');
}

test('a member signs in with the keyboard, opens the member page, logs out and sees the dialog', { timeout: 90_000 }, async () => {
  const { context, page, problems } = await freshPage();
  await page.goto(`${env.base}/account/login?returnUrl=%2Fmembers`);
  await tabTo(page, '#login-email');
  await page.keyboard.type(MEMBER.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(MEMBER.password);
  await Promise.all([page.waitForURL(`${env.base}/members`), page.keyboard.press('Enter')]);
  assert.ok(!(await mainText(page)).includes(MEMBERS_ONLY), 'the member page is open');

  const logout = page.locator('button[data-action="logout"]');
  await logout.waitFor({ state: 'visible', timeout: 10_000 });
  await tabTo(page, 'button[data-action="logout"]');
  await Promise.all([page.waitForURL(/\/\?logout=true$/), page.keyboard.press('Enter')]);
  const dialog = page.getByRole('dialog', { name: 'Logout Successful' });
  await dialog.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await dialog.innerText(), /You have been successfully logged out\./);
  await page.waitForFunction(() => document.activeElement?.closest('dialog.logout-dialog') !== null);
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
  // The dialog's close event (which returns focus) follows its closing by a task.
  await page.waitForFunction(() => document.activeElement?.id === 'main', null, { timeout: 5_000 });

  await page.goto(`${env.base}/members`);
  assert.ok((await mainText(page)).includes(MEMBERS_ONLY), '/members is closed again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the login prompt opens from the member page link and signs in', { timeout: 90_000 }, async () => {
  const { context, page, problems } = await freshPage();
  await page.goto(`${env.base}/members`);
  await tabTo(page, 'a[data-action="login"]');
  await page.keyboard.press('Enter');
  const prompt = page.getByRole('dialog', { name: 'Log in' });
  await prompt.waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'login-prompt-email', 'focus moves into the prompt');
  await page.keyboard.type(MEMBER.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('not the password');
  await page.keyboard.press('Enter');
  await prompt.getByRole('alert').waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await prompt.getByRole('alert').innerText(), 'Your email address or password is incorrect.');

  await page.keyboard.press('Tab');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(MEMBER.password);
  await enterAndLoad(page, 'GET', '/members');
  assert.ok(!(await mainText(page)).includes(MEMBERS_ONLY), 'the member page is open');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the password page stays locked with a wrong password and opens with the right one', { timeout: 60_000 }, async () => {
  const { context, page, problems } = await freshPage();
  await page.goto(`${env.base}/private`);
  assert.ok((await mainText(page)).includes(LOCKED));
  await tabTo(page, '#page-password');
  await page.keyboard.type('verandah');
  await enterAndLoad(page, 'POST', '/private');
  assert.equal(await page.getByRole('alert').innerText(), WRONG_PASSWORD);
  assert.ok((await mainText(page)).includes(LOCKED), 'still locked');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'page-password', 'focus is back on the field');

  await page.keyboard.type('veranda');
  await enterAndLoad(page, 'GET', '/private');
  assert.ok(!(await mainText(page)).includes(LOCKED), 'the page is open');
  await page.goto(`${env.base}/private`);
  assert.ok(!(await mainText(page)).includes(LOCKED), 'and stays open on the next visit');
  assert.deepEqual(problems, []);
  await context.close();
});
