// The 'Logout Successful' information dialog of the landing `/?logout=true` (spec 000 §2).
// The server renders it open (so it shows without JavaScript); here it becomes modal with
// focus on its Close button, and on close focus returns to the main region and the
// `logout` parameter leaves the address, so a reload does not show it again.
import { closeDialog, openDialog } from './dialog';

/** The dialog's title and message, verbatim from the spec. */
export const LOGOUT_TITLE = 'Logout Successful';
export const LOGOUT_MESSAGE = 'You have been successfully logged out.';

/** Builds the dialog (used when the page did not render one). */
function build(doc: Document): HTMLDialogElement {
  const dialog = doc.createElement('dialog');
  dialog.className = 'logout-dialog';
  dialog.setAttribute('aria-labelledby', 'logout-dialog-title');
  dialog.setAttribute('aria-describedby', 'logout-dialog-message');
  const title = doc.createElement('h2');
  title.id = 'logout-dialog-title';
  title.textContent = LOGOUT_TITLE;
  const message = doc.createElement('p');
  message.id = 'logout-dialog-message';
  message.textContent = LOGOUT_MESSAGE;
  const form = doc.createElement('form');
  form.method = 'dialog';
  const button = doc.createElement('button');
  button.type = 'submit';
  button.autofocus = true;
  button.textContent = 'Close';
  form.append(button);
  dialog.append(title, message, form);
  return dialog;
}

/** Whether the address is the logout landing. */
export function isLogoutLanding(location: Location): boolean {
  return new URLSearchParams(location.search).get('logout') === 'true';
}

/** Opens the dialog modally (the page's own, else a new one); returns it. */
export function showLogoutDialog(win: Window): HTMLDialogElement {
  const doc = win.document;
  const dialog = doc.querySelector<HTMLDialogElement>('dialog.logout-dialog') ?? build(doc);
  const close = dialog.querySelector<HTMLButtonElement>('button');
  close?.addEventListener('click', (event) => {
    event.preventDefault();
    closeDialog(dialog);
  });
  openDialog(dialog, null, () => {
    const url = new URL(win.location.href);
    url.searchParams.delete('logout');
    win.history.replaceState(win.history.state, '', url.pathname + url.search + url.hash);
  });
  return dialog;
}
