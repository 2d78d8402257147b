import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from './captcha';
import { mount } from './index';
import { CAPTCHA_REQUIRED, FORM_INVALID, SCROLL_DOWN, SCROLL_UP, STATUS_MESSAGES, SUBMITTING, emailInvalid } from './messages';
import { FORM_SUCCESS_EVENT, navigation } from './use-submission';
import { mockServer, settle, submitForm, type } from './test-support';

const FIELDS = [
  { id: 'about', type: 'section', title: 'About you', underline: true },
  { id: 'name', type: 'name', title: 'Your name', required: true },
  { id: 'email', type: 'email', title: 'Email', required: true },
  { id: 'phone', type: 'phone', title: 'Phone' },
  { id: 'address', type: 'address', title: 'Address', description: 'For a printed menu.' },
  { id: 'message', type: 'textarea', title: 'Message', maxLength: 10 },
  { id: 'date', type: 'date', title: 'Date' },
  { id: 'time', type: 'time', title: 'Time' },
  { id: 'occasion', type: 'radio', title: 'Occasion', options: ['Birthday', 'Work'] },
  { id: 'extras', type: 'checkbox', title: 'Extras', options: ['Cake', 'Flowers', 'Music'] },
  { id: 'heard', type: 'select', title: 'Heard from', options: ['Friend', 'Online'] },
  { id: 'visit', type: 'likert', title: 'Visit', options: ['Coffee', 'Food'] },
  { id: 'budget', type: 'currency', title: 'Budget', currencySymbol: '$' },
  { id: 'source', type: 'hidden', key: 'utm_source', value: 'contact-page' },
];

const DATA = {
  formId: 'contact',
  title: 'Send us a message',
  fields: FIELDS,
  submitButtonText: 'Send message',
  successMessage: 'Thank you!',
  postSubmitHtml: '<p>Call us.</p>',
  captcha: false,
  disclaimer: 'We only use your details to answer you.',
};

const SUCCESS = { status: 200, body: { success: true, postSubmitHtml: '<p>Call <a href="tel:1">us</a>.</p>' } };

const SERVER_HTML = '<form class="form"><p>server markup</p></form>';

function render(data: unknown = DATA, serverHtml = SERVER_HTML, before?: (el: HTMLElement) => void): HTMLElement {
  const el = document.createElement('section');
  el.id = 'block-60cf1b6dcc64273709bf1e5b';
  el.innerHTML = serverHtml;
  document.body.append(el);
  before?.(el);
  act(() => mount(el, data));
  return el;
}

const $ = <T extends Element = HTMLInputElement>(el: HTMLElement, selector: string) => el.querySelector<T>(selector)!;
const form = (el: HTMLElement) => $<HTMLFormElement>(el, 'form');
const button = (el: HTMLElement) => $<HTMLButtonElement>(el, 'button[type="submit"]');
const field = (el: HTMLElement, name: string) => $(el, `[name="${name}"]`);

function fillValid(el: HTMLElement) {
  type(field(el, 'name-First'), 'Ada');
  type(field(el, 'name-Last'), 'Lovelace');
  type(field(el, 'email'), 'ada@example.com');
}

beforeEach(() => {
  document.cookie = 'crumb=c.1; path=/';
  window.history.replaceState(null, '', '/contact?utm_source=flyer');
});

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('the form island', () => {
  it('take over the block with every field kind, labelled', () => {
    const el = render();
    expect(el.textContent).not.toContain('server markup');
    expect($(el, 'h2').textContent).toBe('Send us a message');
    expect(form(el).getAttribute('aria-labelledby')).toBe($(el, 'h2').id);
    for (const name of ['name-First', 'name-Last', 'phone-Areacode', 'phone-Prefix', 'phone-Line', 'address-Line1',
      'address-Line2', 'address-City', 'address-State', 'address-Zip', 'address-Country', 'date-Month', 'date-Day',
      'date-Year', 'time-Hour', 'time-Minute', 'time-Second', 'time-Ampm', 'email', 'message', 'budget', 'heard',
      'visit-0', 'visit-1']) {
      const input = field(el, name);
      expect(input, name).not.toBeNull();
      expect(el.querySelector(`label[for="${input.id}"]`), `label of ${name}`).not.toBeNull();
    }
    expect(el.querySelector('[name="phone-Country"]')).toBeNull();
    expect(el.querySelectorAll('[name="extras"]')).toHaveLength(3);
    expect(el.querySelectorAll('[name="visit-0"]')).toHaveLength(5);
    expect($(el, 'fieldset#form-60cf1b6dcc64273709bf1e5b-address').getAttribute('aria-describedby')).toBe(
      'form-60cf1b6dcc64273709bf1e5b-address-desc form-60cf1b6dcc64273709bf1e5b-address-error',
    );
    expect($(el, 'label[for$="-budget"]').textContent).toContain('($)');
    expect(el.querySelector('[name="source"]')).toBeNull();
    expect(button(el).textContent).toBe('Send message');
  });

  it('keep what was typed in the server form, and the focus', () => {
    const p = 'form-60cf1b6dcc64273709bf1e5b';
    const html = `<form><input id="${p}-email" name="email" value="ada@example.com">
      <input type="checkbox" id="${p}-extras-1" name="extras" value="Flowers" checked>
      <textarea id="${p}-message" name="message">hey</textarea></form>`;
    const el = render(DATA, html, (server) => server.querySelector<HTMLTextAreaElement>('textarea')!.focus());
    expect(field(el, 'email').value).toBe('ada@example.com');
    expect($(el, '[name="extras"][value="Flowers"]').checked).toBe(true);
    const message = field(el, 'message');
    expect(message.value).toBe('hey');
    expect($(el, '.field-counter').textContent).toBe('3 / 10');
    expect(document.activeElement).toBe(message);
  });

  it('leave the HTML alone when the data is not a form', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = render({ formId: '', fields: [] });
    expect(el.textContent).toContain('server markup');
  });

  it('tell the census the form rendered, once, and not for data that is no form', () => {
    const formRender = vi.fn(() => Promise.resolve());
    window.Veranda = { context: null, telemetry: { census: { formRender } } as never };
    try {
      render();
      expect(formRender).toHaveBeenCalledExactlyOnceWith('contact');
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      render({ formId: '', fields: [] });
      expect(formRender).toHaveBeenCalledOnce();
    } finally {
      delete window.Veranda;
    }
  });

  it('count textarea characters as count / max, with an error class past the maximum', () => {
    const el = render();
    const counter = $(el, '.field-counter');
    expect(counter.textContent).toBe('0 / 10');
    expect(field(el, 'message').getAttribute('aria-describedby')).toContain(counter.id);
    type(field(el, 'message') as unknown as HTMLTextAreaElement, 'hello');
    expect(counter.textContent).toBe('5 / 10');
    expect(counter.classList.contains('field-counter--error')).toBe(false);
    type(field(el, 'message') as unknown as HTMLTextAreaElement, 'hello world!');
    expect(counter.textContent).toBe('12 / 10');
    expect(counter.classList.contains('field-counter--error')).toBe(true);
    expect(counter.closest('.field')!.classList.contains('field--error')).toBe(true);
  });

  it('check fields before sending: inline errors, aria-invalid, the whole-form message above and below', async () => {
    const seen = mockServer({});
    const el = render();
    fillValid(el);
    type(field(el, 'email'), 'not-an-email');
    submitForm(form(el));
    await settle();
    const email = field(el, 'email');
    const error = document.getElementById(`${email.id}-error`)!;
    expect(error.hidden).toBe(false);
    expect(error.textContent).toBe(emailInvalid());
    expect(error.textContent).toBe('Email is not valid. Email addresses should follow the format name@example.com.');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toContain(error.id);
    expect(document.activeElement).toBe(email);
    const [top, below] = [...el.querySelectorAll<HTMLElement>('.form-errors')];
    expect([top!.hidden, top!.textContent, top!.getAttribute('role')]).toEqual([false, FORM_INVALID, 'alert']);
    expect([below!.hidden, below!.textContent]).toEqual([false, FORM_INVALID]);
    expect(seen).toHaveLength(0);

    type(field(el, 'email'), 'ada@example.com');
    type(field(el, 'message') as unknown as HTMLTextAreaElement, 'far too long for ten');
    submitForm(form(el));
    await settle();
    expect(field(el, 'email').hasAttribute('aria-invalid')).toBe(false);
    expect(document.getElementById(`${field(el, 'message').id}-error`)!.textContent).toBe(
      'You have exceeded the character limit.',
    );
  });

  it('lock while submitting, ignore repeat submits, and send the payload of every field kind', async () => {
    const seen = mockServer({ '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k-1' } }], '/api/form/SaveFormSubmission': 'hold' });
    const el = render();
    fillValid(el);
    type(field(el, 'phone-Areacode'), '555');
    type(field(el, 'phone-Prefix'), '014');
    type(field(el, 'phone-Line'), '2000');
    act(() => $(el, '[name="extras"][value="Cake"]').click());
    act(() => $(el, '[name="extras"][value="Music"]').click());
    act(() => $(el, '[name="occasion"][value="Work"]').click());
    act(() => $(el, '[name="visit-1"][value="2"]').click());
    const select = $<HTMLSelectElement>(el, '[name="heard"]');
    act(() => {
      select.value = 'Online';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    submitForm(form(el));
    submitForm(form(el));
    await settle();
    expect(button(el).textContent).toBe(SUBMITTING);
    expect(button(el).getAttribute('aria-disabled')).toBe('true');
    expect(form(el).getAttribute('aria-busy')).toBe('true');
    submitForm(form(el));
    await settle();
    expect(seen.filter((s) => s.path === '/api/form/FormSubmissionKey')).toHaveLength(1);
    const save = seen.find((s) => s.path === '/api/form/SaveFormSubmission')!;
    expect(save.method).toBe('POST');
    expect(save.body).toMatchObject({ key: 'k-1', formId: 'contact', objectName: '60cf1b6dcc64273709bf1e5b', isOverlayForm: false, submitButtonText: 'Send message', pagePath: '/contact' });
    expect(save.body!.captchaKey).toBeUndefined();
    const values = JSON.parse(save.body!.form as string) as Record<string, unknown>;
    expect(values).toEqual({
      name: ['Ada', 'Lovelace'],
      email: 'ada@example.com',
      phone: ['', '555', '014', '2000'],
      address: ['', '', '', '', '', ''],
      message: '',
      date: ['', '', ''],
      time: ['', '', '', 'AM'],
      occasion: 'Work',
      extras: ['Cake', 'Music'],
      heard: 'Online',
      visit: { Coffee: [], Food: ['2'] },
      budget: '',
      source: 'flyer',
    });
  });

  it('show the success text and HTML, move focus to it and fire form-success', async () => {
    mockServer({ '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }], '/api/form/SaveFormSubmission': [SUCCESS] });
    const heard = vi.fn();
    window.addEventListener(FORM_SUCCESS_EVENT, heard);
    const el = render();
    fillValid(el);
    submitForm(form(el));
    await settle();
    expect(el.querySelector('form')).toBeNull();
    const success = $<HTMLElement>(el, '.form-success');
    expect(success.textContent).toContain('Thank you!');
    expect(success.querySelector('a[href="tel:1"]')).not.toBeNull();
    expect(document.activeElement).toBe(success);
    expect(heard).toHaveBeenCalledTimes(1);
    expect((heard.mock.calls[0]![0] as CustomEvent).detail).toEqual({ formId: 'contact', blockId: '60cf1b6dcc64273709bf1e5b' });
    window.removeEventListener(FORM_SUCCESS_EVENT, heard);
  });

  it('follow a same-site redirect, and never another', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => {});
    mockServer({ '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }], '/api/form/SaveFormSubmission': [{ status: 200, body: { success: true, redirectUrl: '/thanks' } }, { status: 200, body: { success: true, redirectUrl: '//evil.example' } }] });
    const el = render();
    fillValid(el);
    submitForm(form(el));
    await settle();
    expect(assign).toHaveBeenCalledWith('/thanks');
    document.body.innerHTML = '';
    const other = render();
    fillValid(other);
    submitForm(form(other));
    await settle();
    expect(assign).toHaveBeenCalledTimes(1);
    expect(other.querySelector('.form-success')).not.toBeNull();
  });

  it('mark the fields named in a 400 errors map', async () => {
    mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 400, body: { error: 'One or more fields is invalid, please check your entries.', errors: { subject: 'x', email: 'Server says no.' } } }],
    });
    const el = render();
    fillValid(el);
    submitForm(form(el));
    await settle();
    const email = field(el, 'email');
    expect(document.getElementById(`${email.id}-error`)!.textContent).toBe('Server says no.');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect($(el, '.form-errors').textContent).toBe(SCROLL_DOWN);
    expect(el.querySelector('.form-errors--below')!.textContent).toBe(SCROLL_UP);
    expect(button(el).textContent).toBe('Send message');
  });

  it("word the browser's whole-form check as 000 §5 and the server's field errors as 000 §8", async () => {
    mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 400, body: { error: 'x', errors: { email: 'Server says no.' } } }],
    });
    const el = render();
    fillValid(el);
    type(field(el, 'email'), 'not-an-email');
    submitForm(form(el));
    await settle();
    const texts = () => [...el.querySelectorAll<HTMLElement>('.form-errors')].map((n) => [n.hidden, n.textContent]);
    // The browser's check: the §5 whole-form message, announced above the fields and repeated below.
    expect(texts()).toEqual([
      [false, 'One or more fields is invalid, please check your entries.'],
      [false, 'One or more fields is invalid, please check your entries.'],
    ]);
    expect($(el, '.form-errors').getAttribute('role')).toBe('alert');

    // The server's answer marking a field: §8's above-fields message and its scroll-up variant below.
    type(field(el, 'email'), 'ada@example.com');
    submitForm(form(el));
    await settle();
    expect(texts()).toEqual([
      [false, 'Your form has encountered a problem. Please scroll down to review.'],
      [false, 'Your form has encountered a problem. Please scroll up to review.'],
    ]);
  });

  it('let the caller switch the whole-form check off: the values go to the server as they are', async () => {
    const seen = mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 400, body: { error: 'One or more fields is invalid, please check your entries.', errors: { email: 'Server says no.' } } }],
    });
    const el = render({ ...DATA, validate: false });
    type(field(el, 'email'), 'not-an-email');
    submitForm(form(el));
    await settle();
    // No check before sending: the empty required name and the bad email were sent.
    expect(seen.map((r) => r.path)).toContain('/api/form/SaveFormSubmission');
    const email = field(el, 'email');
    expect(document.getElementById(`${email.id}-error`)!.textContent).toBe('Server says no.');
    expect(field(el, 'name-First').hasAttribute('aria-invalid')).toBe(false);

    // Left on (the default, and `validate: true`), the same entries are stopped before sending.
    document.body.replaceChildren();
    const checked = mockServer({});
    const on = render({ ...DATA, validate: true });
    type(field(on, 'email'), 'not-an-email');
    submitForm(form(on));
    await settle();
    expect(checked).toHaveLength(0);
    expect(field(on, 'email').getAttribute('aria-invalid')).toBe('true');
    expect($(on, '.form-errors').textContent).toBe('One or more fields is invalid, please check your entries.');
  });

  it('show the status message then the server text, and say when no key came', async () => {
    mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 429, body: { error: STATUS_MESSAGES[429] } }, { status: 404, body: { error: 'Gone.' } }],
    });
    const el = render();
    fillValid(el);
    submitForm(form(el));
    await settle();
    expect($(el, '.form-errors').textContent).toBe('Unable to submit form. Submission rate limit exceeded. Please try again later.');
    submitForm(form(el));
    await settle();
    expect($(el, '.form-errors').textContent).toBe('This form has not been configured yet. Gone.');
    mockServer({ '/api/form/FormSubmissionKey': [{ status: 500, body: {} }] });
    submitForm(form(el));
    await settle();
    expect($(el, '.form-errors').textContent).toBe('Could not get a form submission key, please try again later.');
  });
});

describe('the form captcha', () => {
  async function challenge(number: number) {
    const salt = 'abc?expires=9999999999&';
    return { algorithm: 'SHA-256', challenge: await sha256Hex(`${salt}${number}`), maxnumber: 50, salt, signature: 's' };
  }

  it('ask for the captcha first, send its proof, and reset it with the button disabled after a failure', async () => {
    const seen = mockServer({
      '/api/form/captcha/challenge': [{ status: 200, body: await challenge(17) }],
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 401, body: { error: 'The submission key is missing, used or expired.' } }],
    });
    const scrolls = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const el = render({ ...DATA, captcha: true });
    fillValid(el);
    submitForm(form(el));
    await settle();
    expect($(el, '.form-errors').textContent).toBe(CAPTCHA_REQUIRED);
    expect(seen).toHaveLength(0);
    // The whole-form message is brought into view 30 px below the window's top (001 §9 scroll offset).
    await vi.waitFor(() => expect(scrolls).toHaveBeenLastCalledWith(0, -30));

    const check = $(el, '.captcha input[type="checkbox"]');
    act(() => check.click());
    await settle(20);
    expect(check.checked).toBe(true);
    submitForm(form(el));
    await settle();
    const save = seen.find((s) => s.path === '/api/form/SaveFormSubmission')!;
    expect(JSON.parse(atob(save.body!.captchaKey as string))).toMatchObject({ number: 17, signature: 's' });
    expect($(el, '.form-errors').textContent).toBe(
      'Unable to submit form. Please try again later. The submission key is missing, used or expired.',
    );
    expect(check.checked).toBe(false);
    expect(button(el).disabled).toBe(true);
    act(() => check.click());
    await settle(20);
    expect(button(el).disabled).toBe(false);
  });
});
