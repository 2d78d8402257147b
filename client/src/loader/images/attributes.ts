// Reads an image's `data-*` attributes (001 §3, §5) into typed values.

/** How an image fills its box. */
export type CropMode = 'cover' | 'contain' | 'none';

/** A focal point as two fractions of the image's width and height. */
export interface FocalPoint {
  x: number;
  y: number;
}

/** `widthxheight`, or `null` when it does not parse. */
export function parseDimensions(text: string | null): { width: number; height: number } | null {
  const match = /^\s*(\d+)\s*x\s*(\d+)\s*$/i.exec(text ?? '');
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : null;
}

/** `x,y` as fractions clamped to 0..1; the centre when absent or unparseable. */
export function parseFocalPoint(text: string | null): FocalPoint {
  const parts = (text ?? '').split(',').map((part) => Number.parseFloat(part));
  const [x, y] = parts;
  if (parts.length !== 2 || x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) {
    return { x: 0.5, y: 0.5 };
  }
  const clamp = (n: number) => Math.min(1, Math.max(0, n));
  return { x: clamp(x), y: clamp(y) };
}

/** The crop mode: `cover` (fill), `contain` (fit) or `none`. */
export function parseCropMode(text: string | null): CropMode {
  switch (text) {
    case 'cover':
    case 'fill':
      return 'cover';
    case 'contain':
    case 'fit':
      return 'contain';
    default:
      return 'none';
  }
}

/** Size adjustment: a number, 1 by default, never below 0. */
export function parseSizeAdjustment(text: string | null): number {
  if (text === null || text.trim() === '') return 1;
  const n = Number(text);
  return Number.isFinite(n) ? Math.max(0, n) : 1;
}

/** CSS `object-position` for an alignment such as `top-left` or `center`. */
export function alignmentPosition(alignment: string): string {
  const parts = alignment.toLowerCase().split(/[-\s]+/);
  const x = parts.includes('left') ? 'left' : parts.includes('right') ? 'right' : 'center';
  const y = parts.includes('top') ? 'top' : parts.includes('bottom') ? 'bottom' : 'center';
  return `${x} ${y}`;
}

/**
 * The device pixel ratio an image is loaded for: `dpr` within `data-dpr-min` and
 * `data-dpr-max` (either may be absent; a bound that is not a positive number is ignored).
 */
export function boundedDpr(dpr: number, minText: string | null, maxText: string | null): number {
  const bound = (text: string | null) => {
    const n = text === null || text.trim() === '' ? NaN : Number(text);
    return Number.isFinite(n) && n > 0 ? n : null;
  };
  const min = bound(minText);
  const max = bound(maxText);
  let out = dpr;
  if (max !== null) out = Math.min(out, max);
  if (min !== null) out = Math.max(out, min);
  return out;
}
