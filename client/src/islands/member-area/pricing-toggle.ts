// The member access pricing toggle (spec 001 §2): two options, left and right, of which
// exactly one is selected. Selecting one flips the checked state and selected styling of
// the toggle and shows only that option's price and join button. The toggle is a radio
// group: arrow keys move the selection with wrap-around, Home and End go to the ends, and
// only the selected option is in the tab order.

/** The class of the selected option of the toggle. */
export const SELECTED_CLASS = 'is-selected';

/** Keys that move the selection, by how far they move it (`Home`/`End` are handled apart). */
const STEPS: Readonly<Record<string, number>> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

/** A pricing toggle built over a member area's price list. */
export class PricingToggle {
  /** The toggle's radio buttons, left to right. */
  readonly options: HTMLButtonElement[];
  /** The price list entries, one per option. */
  private readonly entries: HTMLElement[];
  /** Index of the selected option. */
  private current = 0;

  /**
   * Builds the toggle with `labels` before the price list of `root` (`ul.pricing`, one entry
   * per label) and selects the left option. Gives `null`, leaving the list as it is, when the
   * list does not hold exactly one entry per label or there are fewer than two labels.
   */
  static create(root: HTMLElement, labels: readonly string[], name: string): PricingToggle | null {
    const list = root.querySelector<HTMLElement>('ul.pricing');
    const entries = list ? [...list.children].filter((c): c is HTMLElement => c instanceof HTMLElement) : [];
    if (!list || labels.length < 2 || entries.length !== labels.length) return null;
    return new PricingToggle(list, entries, labels, name);
  }

  private constructor(list: HTMLElement, entries: HTMLElement[], labels: readonly string[], name: string) {
    this.entries = entries;
    const group = document.createElement('div');
    group.className = 'pricing-toggle';
    group.setAttribute('role', 'radiogroup');
    group.setAttribute('aria-label', `${name}: billing period`);
    this.options = labels.map((label, i) => {
      const entryId = entries[i]!.id || `${list.closest('[id]')?.id ?? 'pricing'}-option-${i}`;
      entries[i]!.id = entryId;
      const option = document.createElement('button');
      option.type = 'button';
      option.className = 'pricing-toggle__option';
      option.setAttribute('role', 'radio');
      option.setAttribute('aria-controls', entryId);
      option.textContent = label;
      option.addEventListener('click', () => this.select(i));
      option.addEventListener('keydown', (event) => this.onKey(event));
      group.append(option);
      return option;
    });
    list.before(group);
    this.select(0);
  }

  /** Index of the selected option. */
  get selected(): number {
    return this.current;
  }

  /** Selects option `index`: the only one checked, in the tab order and with its price shown. */
  select(index: number): void {
    this.current = index;
    this.options.forEach((option, i) => {
      const on = i === index;
      option.setAttribute('aria-checked', String(on));
      option.tabIndex = on ? 0 : -1;
      option.classList.toggle(SELECTED_CLASS, on);
      this.entries[i]!.hidden = !on;
    });
  }

  /** Arrow keys (with wrap-around), Home and End select and focus another option. */
  private onKey(event: KeyboardEvent): void {
    const last = this.options.length - 1;
    let next: number;
    if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    else if (Object.hasOwn(STEPS, event.key)) next = (this.current + STEPS[event.key]! + last + 1) % (last + 1);
    else return;
    event.preventDefault();
    this.select(next);
    this.options[next]!.focus();
  }
}
