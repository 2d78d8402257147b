// Native `<dialog>` helpers: open modally (focus moves into the dialog), and on close
// return focus to the element that opened it, or to the page's main region when that
// element has gone.

/** Focuses `el` if it is still in the document; else the main region; returns what got focus. */
export function returnFocus(doc: Document, el: Element | null): HTMLElement | null {
  const target =
    el instanceof HTMLElement && el.isConnected ? el : doc.querySelector<HTMLElement>('main, [role="main"]');
  if (!target) return null;
  if (target.tagName === 'MAIN' && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
  return target;
}

/**
 * Opens `dialog` modally and focuses its `[autofocus]` element (else its first control).
 * When it closes, `onClose` runs and focus returns to `opener`.
 */
export function openDialog(dialog: HTMLDialogElement, opener: Element | null, onClose?: () => void): void {
  const doc = dialog.ownerDocument;
  if (!dialog.isConnected) doc.body.append(dialog);
  // A dialog the server rendered open is non-modal: reopen it modally, without a close event.
  if (dialog.hasAttribute('open')) dialog.removeAttribute('open');
  dialog.addEventListener(
    'close',
    () => {
      onClose?.();
      returnFocus(doc, opener);
    },
    { once: true },
  );
  // Browsers without modal dialogs (and test DOMs) still get an open dialog.
  if (typeof dialog.showModal === 'function') {
    try {
      dialog.showModal();
    } catch {
      dialog.setAttribute('open', '');
    }
  } else {
    dialog.setAttribute('open', '');
  }
  const first = dialog.querySelector<HTMLElement>('[autofocus]') ?? dialog.querySelector<HTMLElement>('input, button');
  first?.focus();
}

/** Closes `dialog` (also where `close()` is missing) and fires its `close` event once. */
export function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === 'function') {
    dialog.close();
  } else if (dialog.open) {
    dialog.removeAttribute('open');
    dialog.dispatchEvent(new Event('close'));
  }
}
