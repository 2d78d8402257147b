import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PopupOverlaySettings } from '../../generated/types';
import { mount as mountNewsletter } from '../../islands/newsletter/index';
import { mockServer, settle, submitForm, type } from '../../islands/form/test-support';
import { OVERLAY_ID_PREFIX, siteBlockId } from './ids';
import { FORM_TEMPLATE_ID, openOverlay, overlayForm } from './overlay';

const settings: PopupOverlaySettings = {
  style: 'lightbox',
  enableMobile: true,
  version: 1,
  showUntilSignup: false,
  displayFrequency: 7,
  title: 'Porch letters',
  body: 'One short note a month.',
  delaySeconds: 0,
  formId: 'newsletter',
};

const BLOCK = {
  formId: 'newsletter',
  title: 'Porch letters',
  description: 'Monthly notes.',
  submitButtonText: 'Sign me up',
  successMessage: 'Thanks!',
};

const json = () => JSON.stringify(BLOCK).replace(/"/g, '&quot;');

/** The server's newsletter block markup for block id `id` (ids derived from it). */
function newsletterBlock(id: string): string {
  const input = `newsletter-${id}-email`;
  return `<section id="block-${id}" class="block block--newsletter" data-island="newsletter" data-block-json="${json()}">
    <form method="post" action="/api/form/SaveFormSubmission" class="newsletter" data-form-id="newsletter" aria-labelledby="newsletter-${id}-title">
      <h2 id="newsletter-${id}-title">Porch letters</h2>
      <label for="${input}">Email Address</label><input id="${input}" type="email" name="email" required>
      <p><button type="submit">Sign me up</button></p></form></section>`;
}

/** A page: `extra` content, then the overlay's template with its copy of block `n1`. */
function page(extra = ''): void {
  document.body.innerHTML = `<main>${extra}</main><template id="${FORM_TEMPLATE_ID}">${newsletterBlock(`${OVERLAY_ID_PREFIX}n1`)}</template>`;
}

/** Every id used more than once in the document. */
function repeatedIds(): string[] {
  const ids = [...document.querySelectorAll('[id]')].map((el) => el.id);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}

/** Waits until `check` holds (the island chunk is a dynamic import). */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
}

beforeEach(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  document.body.innerHTML = '';
});

describe('the popup overlay newsletter', () => {
  it('shows the sign-up form of the overlay inside its dialog', async () => {
    page();
    const dialog = openOverlay(window, settings);
    const form = dialog.querySelector<HTMLElement>('.popup-overlay__form');
    expect(form?.id).toBe(`block-${OVERLAY_ID_PREFIX}n1`);
    await until(() => dialog.querySelector('input[type="email"]') !== null && form!.getAttribute('data-island-state') === 'mounted');
    expect(dialog.querySelector('button[type="submit"]')?.textContent).toBe('Sign me up');
    // The close control stays last, after the form.
    expect(dialog.lastElementChild?.textContent).toBe('Close');
  });

  it('keeps its own ids beside the same newsletter on the page, labels tied to their inputs', async () => {
    page(newsletterBlock('n1'));
    const pageBlock = document.getElementById('block-n1')!;
    act(() => mountNewsletter(pageBlock, BLOCK));
    const dialog = openOverlay(window, settings);
    const form = dialog.querySelector<HTMLElement>('.popup-overlay__form');
    expect(form).not.toBeNull();
    expect(repeatedIds()).toEqual([]);
    await until(() => form!.getAttribute('data-island-state') === 'mounted');
    expect(repeatedIds()).toEqual([]);
    for (const root of [pageBlock, form!]) {
      const input = root.querySelector<HTMLInputElement>('input[type="email"]')!;
      const label = document.querySelector<HTMLLabelElement>(`label[for="${input.id}"]`)!;
      expect(root.contains(label)).toBe(true);
      expect(label.control).toBe(input);
    }
    expect(form!.querySelector('input')!.id).toContain(OVERLAY_ID_PREFIX);
  });

  it('sends the overlay copy as an overlay form of the real block, the page form as not', async () => {
    const seen = mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 200, body: { success: true } }],
    });
    page(newsletterBlock('n1'));
    const pageBlock = document.getElementById('block-n1')!;
    act(() => mountNewsletter(pageBlock, BLOCK));
    const dialog = openOverlay(window, settings);
    const form = dialog.querySelector<HTMLElement>('.popup-overlay__form')!;
    await until(() => form.getAttribute('data-island-state') === 'mounted');
    type(form.querySelector<HTMLInputElement>('input[type="email"]')!, 'ada@example.com');
    submitForm(form.querySelector('form')!);
    await settle();
    type(pageBlock.querySelector<HTMLInputElement>('input[type="email"]')!, 'bo@example.com');
    submitForm(pageBlock.querySelector('form')!);
    await settle();
    const saves = seen.filter((s) => s.path === '/api/form/SaveFormSubmission').map((s) => s.body!);
    expect(saves).toHaveLength(2);
    expect(saves[0]).toMatchObject({ formId: 'newsletter', objectName: 'n1', isOverlayForm: true, form: JSON.stringify({ email: 'ada@example.com' }) });
    expect(saves[1]).toMatchObject({ formId: 'newsletter', objectName: 'n1', isOverlayForm: false, form: JSON.stringify({ email: 'bo@example.com' }) });
    expect(JSON.parse(localStorage.getItem('veranda-popup-overlay') ?? '{}')).toMatchObject({ submitted: true });
  });

  it('leaves the form out when the page has none, or its copy is open already', () => {
    document.body.innerHTML = '';
    expect(overlayForm(document)).toBeNull();
    page(`<section id="block-${OVERLAY_ID_PREFIX}n1"></section>`);
    expect(overlayForm(document)).toBeNull();
  });

  it('takes the overlay namespace off a block id, and only that', () => {
    expect(siteBlockId(`${OVERLAY_ID_PREFIX}75c8afcd1c8273ac164e16ee`)).toBe('75c8afcd1c8273ac164e16ee');
    expect(siteBlockId('75c8afcd1c8273ac164e16ee')).toBe('75c8afcd1c8273ac164e16ee');
  });
});
