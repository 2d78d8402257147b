// The auto-columns designs' column count (001 §9: "autocolumns/autogrid columnWidth 250,
// gutter 0, behaviour min (floor) else ceil"). With the `min` behaviour (the default) a
// gallery shows as many columns at least `columnWidth` wide as fit, the count rounded down:
// the server's CSS does that on its own (`auto-fill` / `columns`), so the island leaves it.
// Any other `behavior` rounds the count up: the columns are at most `columnWidth` wide, so a
// 1000 px gallery of 300 px columns shows 4 of 250 px rather than 3 of 333 px. That count
// depends on the gallery's width, so the island sets it and counts again after the
// galleries' resize emitter.
import { onGalleryResize } from './resize';

/** The column width when the block gives none (001 §9). */
export const AUTO_COLUMN_WIDTH = 250;
/** The gutter when the block gives none (001 §9). */
export const AUTO_COLUMN_GUTTER = 0;

/** How the column count is rounded: down (`min`, the default) or up (any other behaviour). */
export type ColumnBehavior = 'min' | 'ceil';

/** The rounding a block's `behavior` asks for: `min` (or none) rounds down, anything else up. */
export function columnBehavior(value: unknown): ColumnBehavior {
  return value === undefined || value === null || value === '' || value === 'min' ? 'min' : 'ceil';
}

/**
 * How many columns of `columnWidth` px with `gutter` px between them a gallery `width` px wide
 * shows: rounded down with `min`, up otherwise; at least 1.
 */
export function autoColumnCount(width: number, columnWidth: number, gutter: number, behavior: ColumnBehavior): number {
  const column = columnWidth > 0 ? columnWidth : AUTO_COLUMN_WIDTH;
  const fits = (Math.max(0, width) + Math.max(0, gutter)) / (column + Math.max(0, gutter));
  return Math.max(1, behavior === 'min' ? Math.floor(fits) : Math.ceil(fits));
}

/**
 * Lays out an autogrid or autocolumns `list` with the rounded-up count (the `min` behaviour
 * is the server's CSS and is left alone); returns a function that stops following the width.
 */
export function mountAutoColumns(
  win: Window,
  el: HTMLElement,
  list: HTMLElement,
  layout: 'autogrid' | 'autocolumns',
  options: { columnWidth: number; gutter: number; behavior: ColumnBehavior },
): () => void {
  if (options.behavior === 'min') return () => {};
  const draw = () => {
    const count = autoColumnCount(el.clientWidth || win.innerWidth, options.columnWidth, options.gutter, options.behavior);
    if (layout === 'autogrid') list.style.gridTemplateColumns = `repeat(${count},minmax(0,1fr))`;
    else list.style.columns = String(count);
    list.dataset.columns = String(count);
  };
  draw();
  const stop = onGalleryResize(win, () => (el.isConnected ? draw() : stop()));
  return stop;
}
