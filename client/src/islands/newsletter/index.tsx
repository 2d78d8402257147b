// The newsletter island: a one-field sign-up form (the form island's view, newsletter
// variant). The block gets a rendered class, and a narrow class while its parent is
// narrower than 320 px (spec 000 §4, §9). A sign-up fires the newsletter-subscribe ad-pixel
// event (the listener is set up with the first newsletter block).
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { restore, snapshot } from '../form/carry';
import { FormView } from '../form/form';
import { blockIdOf } from '../form/index';
import { PLEASE_ENTER_VALID_EMAIL } from '../form/messages';
import { parseNewsletterBlock, type Form } from '../form/parse';
import { listenForPixels } from '../../loader/telemetry/ad-pixel';
import './newsletter.css';

/** The class every mounted newsletter block gets. */
export const RENDERED_CLASS = 'newsletter--rendered';
/** The class of a newsletter block whose parent is narrower than [`NARROW_WIDTH`]. */
export const NARROW_CLASS = 'newsletter--narrow';
/** Spec 000 §9: newsletter narrow under 320 px. */
export const NARROW_WIDTH = 320;

/** The field id of the one field (the server reads the address from it). */
export const EMAIL_FIELD = 'email';

/** Sets the narrow class from the parent's width now and whenever it changes. */
export function watchWidth(el: HTMLElement): () => void {
  const parent = el.parentElement;
  if (!parent) return () => {};
  const update = () => el.classList.toggle(NARROW_CLASS, parent.getBoundingClientRect().width < NARROW_WIDTH);
  update();
  if (typeof ResizeObserver === 'undefined') {
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }
  const observer = new ResizeObserver(update);
  observer.observe(parent);
  return () => observer.disconnect();
}

/** Mounts the sign-up form in `el`, the block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  const block = parseNewsletterBlock(data);
  if (!block) {
    console.warn(`Veranda: ${el.id || 'a newsletter block'} has no usable sign-up form; left as is.`);
    return;
  }
  const form: Form = {
    formId: block.formId,
    title: block.title,
    fields: [
      {
        id: EMAIL_FIELD,
        type: 'email',
        title: 'Email Address',
        description: '',
        placeholder: '',
        required: true,
        options: [],
        maxLength: 0,
        showCountryCode: false,
        underline: false,
      },
    ],
    submitButtonText: block.submitButtonText,
    successMessage: block.successMessage,
    postSubmitHtml: '',
    captcha: block.captcha,
    disclaimer: '',
    validate: true,
    // The interface string for an address (000 §5), not the longer form message.
    emailMessage: PLEASE_ENTER_VALID_EMAIL,
  };
  listenForPixels(window);
  el.classList.add(RENDERED_CLASS);
  watchWidth(el);
  const carried = snapshot(el);
  const root = createRoot(el);
  flushSync(() =>
    root.render(<FormView form={form} blockId={blockIdOf(el)} variant="newsletter" description={block.description} />),
  );
  restore(el, carried);
}
