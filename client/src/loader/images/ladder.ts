// The image size ladder (001 §9) and how a width is picked for an element and asked
// of the server (`?format=750w`, the queryString size format).

/** Widths the server serves, widest first. */
export const SIZE_LADDER = [2500, 1500, 1000, 750, 500, 300, 100] as const;

/**
 * The narrowest rung at least `cssWidth × dpr` wide (the widest rung when none is).
 * Under data-saver the device pixel ratio counts as at most 1.
 */
export function pickWidth(cssWidth: number, dpr: number, dataSaver = false): number {
  const ratio = Number.isFinite(dpr) && dpr > 0 ? (dataSaver ? Math.min(dpr, 1) : dpr) : 1;
  const needed = Math.max(0, Number.isFinite(cssWidth) ? cssWidth : 0) * ratio;
  let chosen: number = SIZE_LADDER[0];
  for (const rung of SIZE_LADDER) if (rung >= needed) chosen = rung;
  return chosen;
}

/** A width after the file name (`photo.jpg/750w`, the filename size format). */
export const NAMED_WIDTH = /\/(\d+)w$/;

/**
 * `src` asking for `width`: its `format` query parameter set to `{width}w` (the queryString
 * size format), or with `filename`, `/{width}w` after the file name (001 §3); the hash and
 * other parameters are kept.
 */
export function sizedUrl(src: string, width: number, base: string, filename = false): string {
  const url = new URL(src, base);
  if (filename) {
    url.searchParams.delete('format');
    url.pathname = `${url.pathname.replace(NAMED_WIDTH, '')}/${width}w`;
  } else url.searchParams.set('format', `${width}w`);
  return url.origin === new URL(base).origin ? url.pathname + url.search + url.hash : url.href;
}

/**
 * Upgrades `http:` to `https:` for the platform's own hosts: the page's own host when the
 * page itself is served over https (so an image never becomes mixed content).
 */
export function upgradeToHttps(src: string, page: Location | URL): string {
  if (page.protocol !== 'https:' || !src.startsWith('http://')) return src;
  try {
    const url = new URL(src);
    if (url.host === page.host) url.protocol = 'https:';
    return url.href;
  } catch {
    return src;
  }
}
