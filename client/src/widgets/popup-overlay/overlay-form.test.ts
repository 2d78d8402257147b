import { beforeEach, describe, expect, it } from 'vitest';
import type { PopupOverlaySettings } from '../../generated/types';
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

function page(extra = ''): void {
  const json = JSON.stringify(BLOCK).replace(/"/g, '&quot;');
  document.body.innerHTML = `${extra}<template id="${FORM_TEMPLATE_ID}"><section id="block-n1" class="block block--newsletter"
    data-island="newsletter" data-block-json="${json}"><p>Sign up</p></section></template>`;
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

describe('the popup overlay newsletter', () => {
  it('shows the sign-up form of the overlay inside its dialog', async () => {
    page();
    const dialog = openOverlay(window, settings);
    const form = dialog.querySelector<HTMLElement>('.popup-overlay__form');
    expect(form?.id).toBe('block-n1');
    await until(() => dialog.querySelector('input[type="email"]') !== null);
    expect(form!.getAttribute('data-island-state')).toBe('mounted');
    expect(dialog.querySelector('button[type="submit"]')?.textContent).toBe('Sign me up');
    // The close control stays last, after the form.
    expect(dialog.lastElementChild?.textContent).toBe('Close');
  });

  it('leaves the form out when the page has none, or shows the same block already', () => {
    document.body.innerHTML = '';
    expect(overlayForm(document)).toBeNull();
    page('<section id="block-n1"></section>');
    expect(overlayForm(document)).toBeNull();
  });
});
