// The layout of a restaurant booking block, by the width of its container (spec 001 §9):
// the Tock block switches to a column layout at 750 px or less; the OpenTable block is
// 'wide' above 850 px, otherwise 'standard'.

/** The Tock block's column layout applies at this container width or less. */
export const TOCK_COLUMN_MAX_PX = 750;
/** The OpenTable block is wide above this container width. */
export const OPENTABLE_WIDE_ABOVE_PX = 850;

/** The layout class of a `provider` block `width` px wide; `null` for an unknown provider. */
export function bookingLayout(provider: string, width: number): string | null {
  switch (provider.toLowerCase()) {
    case 'tock':
      return width <= TOCK_COLUMN_MAX_PX ? 'restaurant-booking--column' : 'restaurant-booking--row';
    case 'opentable':
      return width > OPENTABLE_WIDE_ABOVE_PX ? 'restaurant-booking--wide' : 'restaurant-booking--standard';
    default:
      return null;
  }
}

/** Keeps the layout class of `el` in step with its width; gives a function that stops. */
export function watchBookingLayout(el: HTMLElement, provider: string): () => void {
  let current: string | null = null;
  const apply = () => {
    const next = bookingLayout(provider, el.clientWidth);
    if (next === current) return;
    if (current) el.classList.remove(current);
    if (next) el.classList.add(next);
    current = next;
  };
  apply();
  if (typeof ResizeObserver !== 'function') return () => {};
  const observer = new ResizeObserver(apply);
  observer.observe(el);
  return () => observer.disconnect();
}
