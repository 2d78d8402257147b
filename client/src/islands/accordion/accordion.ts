// The accordion (spec 001 §4, §9): the server's `<details>` items, opened and closed with a
// 250 ms height animation. Clicks that arrive while an item animates are ignored. Unless
// several items may be open, opening one closes the others. Each item carries
// `data-is-open`. A panel path selects items: `accordionItems/{index}...` opens that item,
// `description` opens the first, anything else closes all (a selected item is the only one open). Without motion (reduced-motion
// preference) items open and close at once.

/** How long an item takes to open or close. */
export const ACCORDION_ANIMATION_MS = 250;

/** How the accordion behaves. */
export interface AccordionOptions {
  /** Several items may be open at once. */
  allowMultipleOpen: boolean;
  /** The first item starts open. */
  isFirstItemExpanded: boolean;
  /** Animate opening and closing (false under reduced motion). */
  motion: boolean;
}

/** An accordion over the `<details>` items of one block. */
export class Accordion {
  private readonly items: HTMLDetailsElement[];
  private animating = 0;

  constructor(
    root: HTMLElement,
    private readonly options: AccordionOptions,
  ) {
    this.items = [...root.querySelectorAll<HTMLDetailsElement>(':scope > details')];
    this.items.forEach((item, index) => {
      const open = index === 0 && options.isFirstItemExpanded;
      item.open = open;
      item.dataset.isOpen = String(open);
      item.querySelector('summary')?.addEventListener('click', (event) => {
        event.preventDefault();
        this.toggle(index);
      });
    });
  }

  /** Whether an item is animating (clicks are ignored meanwhile). */
  get busy(): boolean {
    return this.animating > 0;
  }

  /** Which items are open. */
  openItems(): number[] {
    return this.items.flatMap((item, index) => (item.dataset.isOpen === 'true' ? [index] : []));
  }

  /** Opens a closed item or closes an open one; ignored while animating. */
  toggle(index: number): void {
    const item = this.items[index];
    if (!item || this.busy) return;
    const opening = item.dataset.isOpen !== 'true';
    if (opening && !this.options.allowMultipleOpen) {
      this.items.forEach((other, i) => i !== index && other.dataset.isOpen === 'true' && this.set(other, false));
    }
    this.set(item, opening);
  }

  /** Selects by panel path (see the module comment). */
  selectPath(path: string): void {
    const match = /^accordionItems\/(\d+)(\/|$)/.exec(path);
    const target = match ? Number(match[1]) : path === 'description' ? 0 : -1;
    this.items.forEach((item, index) => {
      const open = index === target;
      if ((item.dataset.isOpen === 'true') !== open) this.set(item, open);
    });
  }

  private set(item: HTMLDetailsElement, open: boolean): void {
    item.dataset.isOpen = String(open);
    const panel = item.querySelector<HTMLElement>('.accordion-panel');
    if (!this.options.motion || !panel || typeof panel.animate !== 'function') {
      item.open = open;
      return;
    }
    item.open = true;
    const height = `${panel.scrollHeight}px`;
    const frames = open ? [{ height: '0px' }, { height }] : [{ height }, { height: '0px' }];
    panel.style.overflow = 'hidden';
    panel.animate(frames, { duration: ACCORDION_ANIMATION_MS, easing: 'ease-out' });
    this.animating += 1;
    setTimeout(() => {
      this.animating -= 1;
      panel.style.overflow = '';
      item.open = open;
    }, ACCORDION_ANIMATION_MS);
  }
}
