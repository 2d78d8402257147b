// Tooltips (spec 001 §2, §9): shown 1,200 ms after the pointer rests on (or focus enters)
// their target, 250 px wide, 15 px from the pointer and kept 20 px inside the window's
// edges; gone when the pointer leaves, focus leaves or Escape is pressed. The target is
// described by the tooltip (`aria-describedby`).
import './tooltip.css';

/** Delay before a tooltip shows. */
export const TOOLTIP_DELAY_MS = 1200;
/** Tooltip width (px). */
export const TOOLTIP_WIDTH = 250;
/** Distance from the pointer (px). */
export const TOOLTIP_OFFSET = 15;
/** Smallest distance from the window's edges (px). */
export const TOOLTIP_EDGE_MARGIN = 20;

/** Where a `width`×`height` tooltip goes for a pointer at (`x`, `y`) in a `vw`×`vh` window. */
export function tooltipPosition(x: number, y: number, width: number, height: number, vw: number, vh: number) {
  const clamp = (v: number, max: number) => Math.max(TOOLTIP_EDGE_MARGIN, Math.min(v, max - TOOLTIP_EDGE_MARGIN));
  return { left: clamp(x + TOOLTIP_OFFSET, vw - width), top: clamp(y + TOOLTIP_OFFSET, vh - height) };
}

let count = 0;

/** Gives `target` a tooltip with `text`; returns a function that removes it. */
export function attachTooltip(target: HTMLElement, text: string): () => void {
  const doc = target.ownerDocument;
  const win = doc.defaultView ?? window;
  const tip = doc.createElement('div');
  tip.id = `tooltip-${(count += 1)}`;
  tip.className = 'tooltip';
  tip.setAttribute('role', 'tooltip');
  tip.textContent = text;
  tip.hidden = true;
  tip.style.width = `${TOOLTIP_WIDTH}px`;
  doc.body.append(tip);
  target.setAttribute('aria-describedby', tip.id);

  let timer: ReturnType<typeof setTimeout> | undefined;
  let point = { x: 0, y: 0 };
  const show = () => {
    tip.hidden = false;
    const { left, top } = tooltipPosition(point.x, point.y, TOOLTIP_WIDTH, tip.offsetHeight, win.innerWidth, win.innerHeight);
    tip.style.left = `${left}px`;
    tip.style.top = `${top}px`;
  };
  const schedule = (x: number, y: number) => {
    point = { x, y };
    clearTimeout(timer);
    timer = setTimeout(show, TOOLTIP_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer);
    tip.hidden = true;
  };
  const onEnter = (e: PointerEvent) => schedule(e.clientX, e.clientY);
  const onMove = (e: PointerEvent) => {
    if (tip.hidden) point = { x: e.clientX, y: e.clientY };
  };
  const onFocus = () => {
    const box = target.getBoundingClientRect();
    schedule(box.left, box.bottom);
  };
  const onKey = (e: KeyboardEvent) => e.key === 'Escape' && hide();
  target.addEventListener('pointerenter', onEnter);
  target.addEventListener('pointermove', onMove);
  target.addEventListener('pointerleave', hide);
  target.addEventListener('focus', onFocus);
  target.addEventListener('blur', hide);
  target.addEventListener('keydown', onKey);
  return () => {
    hide();
    tip.remove();
    target.removeAttribute('aria-describedby');
    target.removeEventListener('pointerenter', onEnter);
    target.removeEventListener('pointermove', onMove);
    target.removeEventListener('pointerleave', hide);
    target.removeEventListener('focus', onFocus);
    target.removeEventListener('blur', hide);
    target.removeEventListener('keydown', onKey);
  };
}
