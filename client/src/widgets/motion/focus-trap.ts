// The focus trap of dialogs (spec 001 §5: "The focus trap requires exactly one of container
// or predicate"): Tab and Shift+Tab go round the controls of the trap and never leave it.
// The trap is a container (a dialog, the lightbox) or a predicate choosing the page's
// controls that belong to it.

/** The controls Tab reaches. */
export const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** What the trap holds: exactly one of a container and a predicate. */
export interface FocusTrapScope {
  container?: Element | null;
  predicate?: ((el: HTMLElement) => boolean) | null;
}

/** The shown controls Tab reaches under `root`, in order. */
export function focusablesIn(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden && !el.closest('[hidden]'));
}

/**
 * A keydown handler keeping Tab inside `scope`. Throws a TypeError unless exactly one of
 * `container` and `predicate` is given.
 */
export function focusTrap(doc: Document, scope: FocusTrapScope): (event: KeyboardEvent) => void {
  const { container, predicate } = scope;
  if (Boolean(container) === Boolean(predicate)) {
    throw new TypeError('The focus trap requires exactly one of container or predicate.');
  }
  const controls = () => (container ? focusablesIn(container) : focusablesIn(doc).filter((el) => predicate!(el)));
  return (event) => {
    if (event.key !== 'Tab') return;
    const items = controls();
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    const active = doc.activeElement as HTMLElement | null;
    const inside = active !== null && (container ? container.contains(active) : items.includes(active));
    if (event.shiftKey && (active === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  };
}
