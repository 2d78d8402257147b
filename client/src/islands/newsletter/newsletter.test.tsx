import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockServer, settle, submitForm, type } from '../form/test-support';
import { FORM_SUCCESS_EVENT, NEWSLETTER_SIGNUP_EVENT } from '../form/use-submission';
import { str } from '../../spec-pins/fixtures';
import { NARROW_CLASS, RENDERED_CLASS, mount } from './index';

const DATA = {
  formId: 'newsletter',
  title: 'Porch letters',
  description: 'One short note a month.',
  mailingList: 'porch-letters',
  submitButtonText: 'Sign me up',
  successMessage: "You're on the list.",
  captcha: false,
};

function render(parentWidth = 600): HTMLElement {
  const parent = document.createElement('div');
  vi.spyOn(parent, 'getBoundingClientRect').mockReturnValue({ width: parentWidth } as DOMRect);
  const el = document.createElement('section');
  el.id = 'block-75c8afcd1c8273ac164e16ee';
  parent.append(el);
  document.body.append(parent);
  act(() => mount(el, DATA));
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('the newsletter island', () => {
  it('render the sign-up form with the rendered class, narrow under 320 px', () => {
    const wide = render(600);
    expect(wide.classList.contains(RENDERED_CLASS)).toBe(true);
    expect(wide.classList.contains(NARROW_CLASS)).toBe(false);
    expect(wide.querySelector('h2')!.textContent).toBe('Porch letters');
    const input = wide.querySelector<HTMLInputElement>('input[name="email"]')!;
    expect(input.type).toBe('email');
    expect(wide.querySelector(`label[for="${input.id}"]`)!.textContent).toContain('Email Address');
    const narrow = render(319);
    expect(narrow.classList.contains(NARROW_CLASS)).toBe(true);
  });

  it('show a 400 field error inline without the above-fields message', async () => {
    mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 400, body: { errors: { email: 'Server says no.' } } }],
    });
    const el = render();
    const input = el.querySelector<HTMLInputElement>('input[name="email"]')!;
    type(input, 'ada@example.com');
    submitForm(el.querySelector('form')!);
    await settle();
    expect(document.getElementById(`${input.id}-error`)!.textContent).toBe('Server says no.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(el.querySelector<HTMLElement>('.form-errors')!.hidden).toBe(true);
  });

  it("check the address before sending with the spec's interface wording", async () => {
    const seen = mockServer({});
    const el = render();
    const input = el.querySelector<HTMLInputElement>('input[name="email"]')!;
    type(input, 'ada@example');
    submitForm(el.querySelector('form')!);
    await settle();
    expect(seen).toHaveLength(0);
    expect(document.getElementById(`${input.id}-error`)!.textContent).toBe(str('interface.pleaseEnterValidEmail'));
    expect(document.getElementById(`${input.id}-error`)!.textContent).toBe('Please enter a valid email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it('track the sign-up, fire form-success and show the success text', async () => {
    const seen = mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 200, body: { success: true } }],
    });
    const signup = vi.fn();
    const success = vi.fn();
    window.addEventListener(NEWSLETTER_SIGNUP_EVENT, signup);
    window.addEventListener(FORM_SUCCESS_EVENT, success);
    const el = render();
    type(el.querySelector<HTMLInputElement>('input[name="email"]')!, 'ada@example.com');
    submitForm(el.querySelector('form')!);
    await settle();
    const save = seen.find((s) => s.path === '/api/form/SaveFormSubmission')!;
    expect(save.body).toMatchObject({ formId: 'newsletter', form: JSON.stringify({ email: 'ada@example.com' }) });
    expect(signup).toHaveBeenCalledTimes(1);
    expect(success).toHaveBeenCalledTimes(1);
    const done = el.querySelector<HTMLElement>('.newsletter-success')!;
    expect(done.textContent).toContain("You're on the list.");
    expect(document.activeElement).toBe(done);
    window.removeEventListener(NEWSLETTER_SIGNUP_EVENT, signup);
    window.removeEventListener(FORM_SUCCESS_EVENT, success);
  });

  it('fire the newsletter-subscribe ad-pixel event on a sign-up (spec 000 §7)', async () => {
    mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 200, body: { success: true } }],
    });
    const recordEvent = vi.fn(async () => {});
    window.Veranda = { context: null, telemetry: { events: { recordEvent } } as never };
    const el = render();
    expect(recordEvent).not.toHaveBeenCalled();
    type(el.querySelector<HTMLInputElement>('input[name="email"]')!, 'ada@example.com');
    submitForm(el.querySelector('form')!);
    await settle();
    delete window.Veranda;
    expect(recordEvent.mock.calls).toEqual([['newsletter-subscribe', undefined]]);
  });
});
