// The system error overlay (spec 000 §8): a modal native <dialog> titled 'Something Went
// Wrong' with the error's message, a 'Reload Page' button and a 'Clear' button that closes
// it. One overlay at a time; focus goes to 'Reload Page' and back where it was on close.
import { CLEAR, RELOAD_PAGE, SOMETHING_WENT_WRONG } from './messages';
import './overlay.css';

/** The overlay element's id. */
export const OVERLAY_ID = 'veranda-system-error';

/** What the overlay's 'Reload Page' button does (replaced in tests). */
export const overlayActions = {
  reload: (): void => window.location.reload(),
};

/** Shows the overlay with `message` under the title; replaces the message of one already open. */
export function showSystemError(message: string): HTMLDialogElement {
  const existing = document.getElementById(OVERLAY_ID);
  if (existing instanceof HTMLDialogElement) {
    const text = existing.querySelector('.system-error__message');
    if (text) text.textContent = message;
    return existing;
  }
  const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const dialog = document.createElement('dialog');
  dialog.id = OVERLAY_ID;
  dialog.className = 'system-error';
  dialog.setAttribute('aria-labelledby', `${OVERLAY_ID}-title`);
  dialog.setAttribute('aria-describedby', `${OVERLAY_ID}-message`);

  const title = document.createElement('h2');
  title.id = `${OVERLAY_ID}-title`;
  title.textContent = SOMETHING_WENT_WRONG;
  const text = document.createElement('p');
  text.id = `${OVERLAY_ID}-message`;
  text.className = 'system-error__message';
  text.textContent = message;

  const reload = button(RELOAD_PAGE, () => overlayActions.reload());
  reload.autofocus = true;
  const clear = button(CLEAR, () => dismiss());
  const actions = document.createElement('div');
  actions.className = 'system-error__actions';
  actions.append(reload, clear);
  dialog.append(title, text, actions);

  let dismissed = false;
  const dismiss = () => {
    if (dismissed) return;
    dismissed = true;
    if (typeof dialog.close === 'function' && dialog.open) dialog.close();
    dialog.remove();
    if (returnFocus?.isConnected) returnFocus.focus();
  };
  // Escape closes a modal dialog natively; clean up the same way.
  dialog.addEventListener('close', dismiss);
  document.body.append(dialog);
  if (typeof dialog.showModal === 'function') {
    dialog.showModal();
  } else {
    dialog.setAttribute('open', '');
  }
  reload.focus();
  return dialog;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const el = document.createElement('button');
  el.type = 'button';
  el.textContent = label;
  el.addEventListener('click', onClick);
  return el;
}
