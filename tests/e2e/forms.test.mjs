// Browser end-to-end test of the demo contact form: starts the `veranda` binary named by
// VERANDA_BIN (after creating an owner account in its fresh data dir) with the demo site,
// then in Debian's Chromium a visitor fills the form on /contact with a bad email, sees the
// message, fixes it, completes the spam check and sends it, and sees the success text. A
// second visitor does the same with the keyboard alone. Both submissions are then read back
// through the owner's export (`GET /api/form/submissions`).
//
//   cd tests/e2e && npm ci && VERANDA_BIN=../../target/debug/veranda node --test forms.test.mjs
//
// It builds nothing: the binary and the client (`client/dist`) must be built first.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { axe, cookieHeaderOf, problemPage, signIn, useServer } from './support.mjs';

/** Where axe looks on the forms page: the form and newsletter islands. */
const FORM_ISLANDS = { include: [['[data-island="form"]'], ['[data-island="newsletter"]']] };

const OWNER = { email: 'owner@example.com', password: 'porch-swing-lantern-42' };
const EMAIL_INVALID = 'Email is not valid. Email addresses should follow the format name@example.com.';
const SUCCESS_TEXT = "Thank you! We'll write back soon.";
const FORM = '[data-island="form"]';

const env = useServer({ name: 'forms', owner: OWNER });
const { serverLog } = env;

/** A page where only this machine answers; page and console errors are kept. */
const newPage = (options = {}) => problemPage(env, options);

/** Opens /contact and waits for the form island to take over the block. */
async function openContact(page) {
  const response = await page.goto(`${env.base}/contact`, { waitUntil: 'load' });
  assert.equal(response?.status(), 200, 'GET /contact');
  const block = page.locator(FORM).first();
  await block.scrollIntoViewIfNeeded();
  await page.locator(`${FORM}[data-island-state="mounted"] .captcha`).waitFor({ timeout: 15_000 });
  return block;
}

/** The `name` (or id) and tag of the focused element. */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return { name: el?.getAttribute('name') ?? '', tag: el?.tagName ?? '', type: el?.getAttribute('type') ?? '', cls: el?.className ?? '', text: el?.textContent ?? '' };
  });
}

/** Presses Tab (or Shift+Tab) until `match` holds for the focused element; at most 80 presses. */
async function tabTo(page, match, key = 'Tab') {
  for (let i = 0; i < 80; i += 1) {
    if (match(await focused(page))) return;
    await page.keyboard.press(key);
  }
  assert.fail(`the keyboard never reached the element (last focus: ${JSON.stringify(await focused(page))})`);
}

const named = (name) => (f) => f.name === name;

/** Polls the owner's export of the contact form until `found` holds (≤ 10 s). */
async function exported(cookie, found) {
  const deadline = Date.now() + 10_000;
  let last = null;
  while (Date.now() < deadline) {
    const res = await fetch(`${env.base}/api/form/submissions?formId=contact`, { headers: { Cookie: cookie } });
    assert.equal(res.status, 200, `GET /api/form/submissions as the owner: ${await res.clone().text()}`);
    last = await res.json();
    if (found(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`the export never showed the submissions; last answer: ${JSON.stringify(last)}${serverLog()}`);
}

/** Signs the owner in; gives the `Cookie` header of the session. */
async function ownerCookie() {
  return cookieHeaderOf(await signIn(env.base, OWNER));
}

test('a visitor fixes a bad email, sends the contact form and sees the success text', { timeout: 90_000 }, async () => {
  const { context, page, problems } = await newPage();
  const block = await openContact(page);
  await block.getByLabel('First Name').fill('Ada');
  await block.getByLabel('Last Name').fill('Lovelace');
  const email = block.locator('input[name="email"]');
  await email.fill('ada@example');
  await block.getByLabel('Subject').fill('Porch party');
  await block.locator('textarea[name="message"]').fill('Twelve guests on a Saturday.');
  assert.equal(await block.locator('.field-counter').textContent(), '28 / 500');
  await block.getByRole('button', { name: 'Send message' }).click();

  const error = block.locator(`#${await email.getAttribute('id')}-error`);
  await error.waitFor({ state: 'visible', timeout: 5_000 });
  assert.equal(await error.textContent(), EMAIL_INVALID);
  assert.equal(await email.getAttribute('aria-invalid'), 'true');
  assert.ok((await email.getAttribute('aria-describedby')).split(' ').includes(await error.getAttribute('id')));
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'email', 'focus goes to the bad field');
  assert.equal(await block.locator('.form-errors').first().textContent(), 'One or more fields is invalid, please check your entries.');

  assert.deepEqual(await axe(page, FORM_ISLANDS), [], 'axe finds no violation in the form showing its errors');

  await email.fill('ada@example.com');
  await block.getByLabel("I'm not a robot").click();
  await block.locator('.captcha--solved').waitFor({ timeout: 15_000 });
  await block.getByRole('button', { name: 'Send message' }).click();
  const success = block.locator('.form-success');
  await success.waitFor({ timeout: 10_000 });
  assert.ok((await success.textContent()).includes(SUCCESS_TEXT));
  assert.equal(await success.locator('a[href="tel:+15550142"]').count(), 1, 'the post-submit HTML is shown');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('form-success')), true, 'focus moves to the success text');
  assert.deepEqual(await axe(page, FORM_ISLANDS), [], 'axe finds no violation after success');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the whole contact form works with the keyboard alone', { timeout: 90_000 }, async () => {
  const { context, page, problems } = await newPage();
  await openContact(page);
  const keys = page.keyboard;
  await tabTo(page, named('name-First'));
  await keys.type('Grace');
  await keys.press('Tab');
  await keys.type('Hopper');
  await keys.press('Tab');
  assert.equal((await focused(page)).name, 'email');
  await keys.type('grace@example.com');
  // Back and forth: Shift+Tab returns to the last name.
  await keys.press('Shift+Tab');
  assert.equal((await focused(page)).name, 'name-Last');
  await tabTo(page, named('subject'));
  await keys.type('Keyboard only');
  await keys.press('Tab');
  assert.equal((await focused(page)).name, 'message');
  await keys.type('Sent without a mouse.');
  await tabTo(page, named('occasion'));
  await keys.press('Space');
  await keys.press('ArrowDown');
  await tabTo(page, named('extras'));
  await keys.press('Space');
  await tabTo(page, named('heard-from'));
  await keys.press('ArrowDown');
  await tabTo(page, named('visit-0'));
  await keys.press('Space');
  await tabTo(page, (f) => f.type === 'checkbox' && f.name === '');
  await keys.press('Space');
  await page.locator(`${FORM} .captcha--solved`).waitFor({ timeout: 15_000 });
  await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Send message');
  await keys.press('Enter');
  const success = page.locator(`${FORM} .form-success`);
  await success.waitFor({ timeout: 10_000 });
  assert.ok((await success.textContent()).includes(SUCCESS_TEXT));
  assert.equal((await focused(page)).cls, 'form-success');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the owner export shows both submissions with their values', { timeout: 30_000 }, async () => {
  const cookie = await ownerCookie();
  const body = await exported(cookie, (b) => Array.isArray(b.submissions) && b.submissions.length >= 2);
  const byEmail = new Map(body.submissions.map((s) => [s.values?.email, s]));
  const ada = byEmail.get('ada@example.com');
  assert.ok(ada, `Ada's submission is exported: ${JSON.stringify(body)}`);
  assert.deepEqual(ada.values.name, ['Ada', 'Lovelace']);
  assert.equal(ada.values.subject, 'Porch party');
  assert.equal(ada.values.source, 'contact-page', 'the hidden field falls back to its default');
  const grace = byEmail.get('grace@example.com');
  assert.ok(grace, `Grace's submission is exported: ${JSON.stringify(body)}`);
  assert.deepEqual(grace.values.name, ['Grace', 'Hopper']);
  assert.equal(grace.values.message, 'Sent without a mouse.');
  assert.equal(grace.values.occasion, 'Work gathering', 'Space then ArrowDown picks the second radio');
  assert.deepEqual(grace.values.extras, ['Cake']);
  assert.equal(grace.values['heard-from'], 'A friend');
  assert.deepEqual(grace.values.visit, { 'The coffee': ['-2'] });
});
