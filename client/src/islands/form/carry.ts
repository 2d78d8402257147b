// Carries what a visitor already did in the server-rendered form over to the island's:
// values typed, boxes checked and the focused control, matched by element id (the island
// draws the same ids as the server). The island can mount on the first focus, so without
// this the visitor's focus and first keystrokes would be lost.

/** The state of the server form's controls. */
export interface Carried {
  /** Control id to its value or checked state. */
  controls: Array<{ id: string; value: string; checked: boolean | null }>;
  /** The id of the focused control, if it was inside the block. */
  focused: string | null;
}

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function controls(root: HTMLElement): Control[] {
  return [...root.querySelectorAll<Control>('input[id], textarea[id], select[id]')].filter((c) => c.type !== 'hidden');
}

/** Reads the controls of `root` before the island replaces them. */
export function snapshot(root: HTMLElement): Carried {
  const active = root.ownerDocument.activeElement;
  return {
    controls: controls(root).map((c) => ({
      id: c.id,
      value: c.value,
      checked: c instanceof HTMLInputElement && (c.type === 'checkbox' || c.type === 'radio') ? c.checked : null,
    })),
    focused: active instanceof HTMLElement && root.contains(active) && active.id ? active.id : null,
  };
}

/** Puts the carried state into the island's controls; `input` events keep counters in step. */
export function restore(root: HTMLElement, carried: Carried): void {
  const byId = new Map(controls(root).map((c) => [c.id, c]));
  for (const { id, value, checked } of carried.controls) {
    const control = byId.get(id);
    if (!control) continue;
    if (checked !== null && control instanceof HTMLInputElement) {
      if (control.checked === checked) continue;
      control.checked = checked;
    } else if (control.value !== value && value !== '') {
      control.value = value;
    } else {
      continue;
    }
    control.dispatchEvent(new Event('input', { bubbles: true }));
  }
  if (carried.focused) byId.get(carried.focused)?.focus();
}
