// Scaled text: the text of a scaled-text block stays on one line by shrinking its font to
// the width of its block, never below 11 px (spec 001 §9); text that still does not fit at
// 11 px wraps instead. It is fitted again whenever the block's width changes, through the
// self-timing throttle (fitting measures the text, which forces layout).

import { throttled } from '../../widgets/throttle/throttle';

/** The smallest font size scaled text shrinks to, in px. */
export const MIN_FONT_SIZE_PX = 11;

/**
 * The font size that fits text `needed` px wide at `natural` px into `available` px:
 * `natural` when it fits, otherwise the proportional size, floored, never below 11.
 */
export function fittedFontSize(natural: number, available: number, needed: number): number {
  if (needed <= available || needed <= 0 || available <= 0) return natural;
  return Math.max(MIN_FONT_SIZE_PX, Math.floor((natural * available) / needed));
}

/** Fits the text element `text` to its own width; gives the font size chosen. */
export function fitText(text: HTMLElement): number {
  text.style.fontSize = '';
  text.style.whiteSpace = 'nowrap';
  const natural = parseFloat(getComputedStyle(text).fontSize) || 16;
  const size = fittedFontSize(natural, text.clientWidth, text.scrollWidth);
  if (size !== natural) text.style.fontSize = `${size}px`;
  // At the smallest size the text may still be too wide: let it wrap rather than be cut.
  if (size === MIN_FONT_SIZE_PX && text.scrollWidth > text.clientWidth) text.style.whiteSpace = '';
  return size;
}

/** Fits `text` now and whenever `block` changes width; gives a function that stops watching. */
export function watchScaledText(block: HTMLElement, text: HTMLElement): () => void {
  fitText(text);
  if (typeof ResizeObserver !== 'function') return () => {};
  let width = block.clientWidth;
  const refit = throttled(() => {
    if (block.clientWidth === width) return;
    width = block.clientWidth;
    fitText(text);
  });
  const observer = new ResizeObserver(refit);
  observer.observe(block);
  return () => observer.disconnect();
}
