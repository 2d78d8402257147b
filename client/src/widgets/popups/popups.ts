// Confirmation, alert and information popups (spec 001 §2, §3, §4, §9). Confirmation: a
// title, a message and up to three buttons (confirm, reject, cancel); alert: one Okay
// button; information: no buttons, top-right, gone after 2,000 ms. Confirmation and alert
// are modal native `<dialog>`s: focus moves in and returns on close, Escape and a click on
// the overlay cancel (unless `escToCancel` is off). Hiding takes 600 ms (a class drives the
// fade), then the popup is removed unless `destroyOnHide` is off. While open, a popup that
// Escape may cancel is a close target (`members/close-targets.ts`), so the escape key closes
// the newest popup before it does anything else, modal or not.
import { registerCloseTarget } from '../../members/close-targets';
import './popups.css';

/** Width of a confirmation popup (px). */
export const POPUP_WIDTH = 350;
/** Inner padding (px). */
export const POPUP_PADDING = 20;
/** The hide transition. */
export const HIDE_TRANSITION_MS = 600;
/** How long an information popup stays. */
export const INFORMATION_HIDE_AFTER_MS = 2000;
/** Modal base z-index. */
export const MODAL_Z_INDEX = 30000;

/** How a popup ended. */
export type PopupResult = 'confirm' | 'reject' | 'cancel' | 'timeout';

/** Confirmation options (spec 001 §3); labels left out mean no such button. */
export interface PopupOptions {
  title: string;
  message: string;
  confirmText?: string;
  rejectText?: string;
  cancelText?: string;
  style?: 'confirmation' | 'alert' | 'information';
  position?: 'center' | 'top-right';
  width?: number;
  padding?: number;
  zIndex?: number;
  /** Closes on its own after this many ms. */
  hideAfterTime?: number;
  showOverlay?: boolean;
  escToCancel?: boolean;
  destroyOnHide?: boolean;
}

/** An open popup. */
export interface Popup {
  element: HTMLDialogElement;
  /** Resolves with how it ended, once hidden. */
  result: Promise<PopupResult>;
  /** Hides it with `result`. */
  hide(result: PopupResult): void;
}

/** Opens a popup in `doc`. */
export function showPopup(doc: Document, options: PopupOptions): Popup {
  const o = { position: 'center', showOverlay: true, escToCancel: true, destroyOnHide: true, style: 'confirmation', ...options };
  const returnFocus = doc.activeElement instanceof HTMLElement ? doc.activeElement : null;
  const dialog = doc.createElement('dialog');
  dialog.className = `popup popup--${o.style} popup--${o.position}`;
  dialog.style.width = `${o.width ?? POPUP_WIDTH}px`;
  dialog.style.padding = `${o.padding ?? POPUP_PADDING}px`;
  dialog.style.zIndex = String(o.zIndex ?? MODAL_Z_INDEX);
  const id = `popup-${Math.random().toString(36).slice(2)}`;
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  dialog.setAttribute('aria-describedby', `${id}-message`);
  const title = doc.createElement('h2');
  title.id = `${id}-title`;
  title.textContent = o.title;
  const message = doc.createElement('p');
  message.id = `${id}-message`;
  message.textContent = o.message;
  dialog.append(title, message);

  let settle: (r: PopupResult) => void = () => {};
  const result = new Promise<PopupResult>((resolve) => (settle = resolve));
  let hidden = false;
  let unregister = () => {};
  const hide = (r: PopupResult) => {
    if (hidden) return;
    hidden = true;
    unregister();
    dialog.classList.add('popup--hiding');
    setTimeout(() => {
      if (dialog.open) dialog.close();
      if (o.destroyOnHide) dialog.remove();
      returnFocus?.focus();
      settle(r);
    }, HIDE_TRANSITION_MS);
  };

  const buttons: Array<[string | undefined, PopupResult]> = [
    [o.cancelText, 'cancel'],
    [o.rejectText, 'reject'],
    [o.confirmText, 'confirm'],
  ];
  const row = doc.createElement('div');
  row.className = 'popup__buttons';
  for (const [label, r] of buttons) {
    if (!label) continue;
    const b = doc.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.className = `popup__button popup__button--${r}`;
    b.addEventListener('click', () => hide(r));
    row.append(b);
  }
  if (row.childElementCount > 0) dialog.append(row);

  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    if (o.escToCancel) hide('cancel');
  });
  dialog.addEventListener('click', (event) => {
    if (event.target !== dialog || !o.showOverlay) return;
    const box = dialog.getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (!inside) hide('cancel');
  });

  doc.body.append(dialog);
  if (o.style === 'information') {
    dialog.setAttribute('role', 'status');
    dialog.show();
  } else if (o.showOverlay) {
    dialog.showModal();
  } else {
    dialog.show();
  }
  if (o.escToCancel) unregister = registerCloseTarget(() => hide('cancel'));
  const after = o.hideAfterTime ?? (o.style === 'information' ? INFORMATION_HIDE_AFTER_MS : undefined);
  if (after !== undefined) setTimeout(() => hide('timeout'), after);
  return { element: dialog, result, hide };
}

/** A confirmation popup with up to three buttons. */
export function confirmPopup(doc: Document, options: Omit<PopupOptions, 'style'>): Popup {
  return showPopup(doc, { confirmText: 'Confirm', cancelText: 'Cancel', ...options, style: 'confirmation' });
}

/** An alert: only an Okay button. */
export function alertPopup(doc: Document, title: string, message: string): Popup {
  return showPopup(doc, { title, message, confirmText: 'Okay', style: 'alert' });
}

/** An information popup: no buttons, top-right, gone after 2,000 ms. */
export function informationPopup(doc: Document, title: string, message: string): Popup {
  return showPopup(doc, { title, message, style: 'information', position: 'top-right', showOverlay: false });
}
