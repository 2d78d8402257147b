// The popup overlay's interface, a lazy chunk without React: a native modal `<dialog>`
// with the overlay's title and text and a Close button. The browser moves focus into it,
// keeps it there and closes it on Escape; focus goes back where it was on close. Closing
// saves the close date, a `veranda:form-success` window event for the overlay's form saves
// the sign-up, and the census hears `shown`, `closed` and `submitted`. While open it is a
// close target (`members/close-targets.ts`, imported on open so the page loader does not
// list it among this chunk's files): the escape key closes it before anything else.
import type { PageContext, PopupOverlaySettings } from '../../generated/types';
import { overlayToShow, saveRecord } from './rules';
import './overlay.css';

/** The window event the forms runtime sends after a successful submission; `detail.formId`. */
export const FORM_SUCCESS_EVENT = 'veranda:form-success';

function storageOf(win: Window): Storage | null {
  try {
    return win.localStorage;
  } catch {
    return null;
  }
}

function census(win: Window, event: string): void {
  void win.Veranda?.telemetry?.census.overlay(event);
}

/** The id of the `<template>` the server puts the overlay's form block in. */
export const FORM_TEMPLATE_ID = 'popup-overlay-form';

/**
 * A copy of the overlay's form block (from its `<template>`), with its island started; `null`
 * when the page has none, or the copy is on the page already (its ids would be there twice).
 * The server renders the copy under the overlay's own id namespace (`ids.ts`), so it has
 * ids of its own even where the page shows the same block.
 */
export function overlayForm(doc: Document): HTMLElement | null {
  const template = doc.getElementById(FORM_TEMPLATE_ID);
  if (!(template instanceof HTMLTemplateElement)) return null;
  const block = template.content.firstElementChild;
  if (!(block instanceof HTMLElement) || (block.id && doc.getElementById(block.id))) return null;
  const copy = doc.importNode(block, true);
  copy.classList.add('popup-overlay__form');
  const kind = copy.dataset.island;
  let data: unknown = null;
  try {
    data = JSON.parse(copy.dataset.blockJson ?? 'null');
  } catch {
    return copy;
  }
  const load = kind === 'newsletter' ? import('../../islands/newsletter/index.tsx') : kind === 'form' ? import('../../islands/form/index.tsx') : null;
  load
    ?.then((island) => {
      island.mount(copy, data);
      copy.setAttribute('data-island-state', 'mounted');
    })
    .catch((error: unknown) => console.error('Veranda: the popup overlay form could not start.', error));
  return copy;
}

/** Opens the overlay in `win`; gives its dialog. */
export function openOverlay(win: Window, settings: PopupOverlaySettings): HTMLDialogElement {
  const doc = win.document;
  const storage = storageOf(win);
  const returnFocus = doc.activeElement instanceof HTMLElement ? doc.activeElement : null;

  const dialog = doc.createElement('dialog');
  dialog.className = `popup-overlay popup-overlay--${settings.style.replace(/[^\w-]/g, '')}`;
  dialog.setAttribute('aria-labelledby', 'popup-overlay-title');
  const title = doc.createElement('h2');
  title.id = 'popup-overlay-title';
  title.textContent = settings.title.trim() || 'Newsletter';
  const body = doc.createElement('p');
  body.textContent = settings.body;
  const close = doc.createElement('button');
  close.type = 'button';
  close.className = 'popup-overlay__close';
  close.textContent = 'Close';
  close.addEventListener('click', () => dialog.close());
  dialog.append(title);
  if (settings.body.trim() !== '') dialog.append(body);
  const form = overlayForm(doc);
  if (form) dialog.append(form);
  dialog.append(close);

  const onSuccess = (event: Event) => {
    const detail = (event as CustomEvent<{ formId?: string }>).detail;
    if (!settings.formId || detail?.formId !== settings.formId) return;
    saveRecord(storage, settings.version, { submitted: true });
    census(win, 'submitted');
  };
  win.addEventListener(FORM_SUCCESS_EVENT, onSuccess);
  let unregister: (() => void) | null = null;
  import('../../members/close-targets')
    .then(({ registerCloseTarget }) => {
      if (unregister === null) unregister = registerCloseTarget(() => dialog.close());
    })
    .catch((error: unknown) => console.error('Veranda: the escape key cannot close the popup overlay.', error));
  dialog.addEventListener('close', () => {
    unregister?.();
    unregister = () => {};
    saveRecord(storage, settings.version, { 'date-closed': Date.now() });
    census(win, 'closed');
    win.removeEventListener(FORM_SUCCESS_EVENT, onSuccess);
    dialog.remove();
    returnFocus?.focus();
  });
  // A click on the backdrop (the dialog element itself, outside its box) closes it too.
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) dialog.close();
  });

  doc.body.append(dialog);
  if (typeof dialog.showModal === 'function') dialog.showModal();
  else dialog.setAttribute('open', '');
  census(win, 'shown');
  return dialog;
}

/** Opens the overlay when the rules say it is due now; gives its dialog, or `null`. */
export function openWhenDue(win: Window, context: PageContext | null): HTMLDialogElement | null {
  const settings = overlayToShow(win, context, Date.now());
  return settings ? openOverlay(win, settings) : null;
}
