// Map block data (001 §3 "Map widget", §5, §9): location, display options and the six
// styles, with the spec's defaults; and the site's map settings the server writes on the
// block's `.map` element (tile address, attribution, Google Maps key, language, region).
// A block's data is either flat (the §3 location fields and display options) or the map
// view config `{location, ui: {showControls, showTerrain, showLabels, style}}`, whose
// `location` holds the location fields; a flat field wins over the same field nested.

/** Default centre (001 §3). */
export const DEFAULT_CENTER = { lat: 40.720882, lng: -74.000988 } as const;
/** Default zoom (001 §3). */
export const DEFAULT_ZOOM = 12;
/** Option updates are applied this long after the last one, in ms (001 §9). */
export const UPDATE_DEBOUNCE_MS = 60;
/** The maps script fails when its callback has not fired by then, in ms (001 §7, §9). */
export const SCRIPT_TIMEOUT_MS = 30_000;
/** The OpenStreetMap tile address, used when the site sets none. */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** The six styles by name, with their ids (001 §3). */
export const MAP_STYLES = {
  Original: 1,
  Grayscale: 2,
  Satellite: 3,
  MinimalLight: 4,
  MinimalDark: 5,
  MinimalBlue: 6,
} as const;

/** A style name. */
export type MapStyle = keyof typeof MAP_STYLES;

/** A map block's options, defaults filled in. */
export interface MapOptions {
  center: { lat: number; lng: number };
  /** The marker; the centre when the block gives none (null). */
  marker: { lat: number; lng: number };
  zoom: number;
  style: MapStyle;
  showLabels: boolean;
  showTerrain: boolean;
  draggable: boolean;
  scrollwheel: boolean;
  showControls: boolean;
  disableDefaultUI: boolean;
  markerDraggable: boolean;
  linkOnClick: boolean;
  /** The place's name, for the map's accessible name and the marker's title. */
  title: string;
}

/** The site's map settings, read from the `.map` element. */
export interface MapSettings {
  tileUrl: string;
  attribution: string;
  /** Imagery for the Satellite style. */
  satelliteTileUrl: string | null;
  /** Transparent labels drawn over the imagery when a Satellite map shows labels. */
  labelOverlayUrl: string | null;
  /** Tiles with relief, for maps that show terrain. */
  terrainTileUrl: string | null;
  /** Tiles without place names, for maps that hide labels. */
  unlabelledTileUrl: string | null;
  googleKey: string | null;
  language: string | null;
  region: string | null;
  /** The place's link in the block's fallback, followed on a marker click with `linkOnClick`. */
  placeUrl: string | null;
}

function num(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? value : null;
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** The style named (or numbered) by `value`; Grayscale, the default, otherwise. */
export function mapStyle(value: unknown): MapStyle {
  if (typeof value === 'string' && value in MAP_STYLES) return value as MapStyle;
  if (typeof value === 'number') {
    const named = (Object.keys(MAP_STYLES) as MapStyle[]).find((k) => MAP_STYLES[k] === value);
    if (named) return named;
  }
  return 'Grayscale';
}

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The block's data with the view config's `location` and `ui` brought up to the top level. */
export function flattenViewConfig(data: unknown): Record<string, unknown> {
  const d = record(data);
  return { ...record(d.location), ...record(d.ui), ...d };
}

/** Reads a map block's data; anything missing or out of range takes its default. */
export function parseMapOptions(data: unknown): MapOptions {
  const d = flattenViewConfig(data);
  const lat = num(d.mapLat, -90, 90) ?? DEFAULT_CENTER.lat;
  const lng = num(d.mapLng, -180, 180) ?? DEFAULT_CENTER.lng;
  const markerLat = num(d.markerLat, -90, 90);
  const markerLng = num(d.markerLng, -180, 180);
  const zoom = num(d.mapZoom, 0, 22);
  return {
    center: { lat, lng },
    marker: markerLat !== null && markerLng !== null ? { lat: markerLat, lng: markerLng } : { lat, lng },
    zoom: zoom === null ? DEFAULT_ZOOM : Math.round(zoom),
    style: mapStyle(d.style),
    showLabels: flag(d.showLabels, true),
    showTerrain: flag(d.showTerrain, false),
    draggable: flag(d.draggable, true),
    scrollwheel: flag(d.scrollwheel, false),
    showControls: flag(d.showControls, true),
    disableDefaultUI: flag(d.disableDefaultUI, false),
    markerDraggable: flag(d.markerDraggable, false),
    linkOnClick: flag(d.linkOnClick, false),
    title: typeof d.addressTitle === 'string' ? d.addressTitle.trim() : '',
  };
}

/** Reads the site's map settings from the block's `.map` element. */
export function readMapSettings(el: HTMLElement | null): MapSettings {
  const attr = (name: string) => {
    const v = el?.getAttribute(name)?.trim();
    return v ? v : null;
  };
  const tiles = (name: string) => {
    const v = attr(name);
    return v && /^https?:\/\//.test(v) ? v : null;
  };
  return {
    tileUrl: tiles('data-tile-url') ?? DEFAULT_TILE_URL,
    attribution: attr('data-tile-attribution') ?? '© OpenStreetMap contributors',
    satelliteTileUrl: tiles('data-satellite-tile-url'),
    labelOverlayUrl: tiles('data-label-overlay-url'),
    terrainTileUrl: tiles('data-terrain-tile-url'),
    unlabelledTileUrl: tiles('data-unlabelled-tile-url'),
    googleKey: attr('data-google-maps-key'),
    language: attr('data-language'),
    region: attr('data-region'),
    placeUrl: placeLink(el),
  };
}

/** The http(s) address of the fallback's place link, or `null`. */
function placeLink(el: HTMLElement | null): string | null {
  const href = el?.querySelector('.map-fallback a[href]')?.getAttribute('href')?.trim();
  return href && /^https?:\/\//.test(href) ? href : null;
}

/** Where a marker click goes: the place's link with `linkOnClick`, else nowhere (`null`). */
export function markerLink(options: MapOptions, settings: MapSettings): string | null {
  return options.linkOnClick ? settings.placeUrl : null;
}

/** The tiles a Leaflet map draws: a base layer, an optional overlay, and whether the style's filter applies. */
export interface TileChoice {
  base: string;
  overlay: string | null;
  filtered: boolean;
}

/**
 * The tiles for `options` from the site's settings: the Satellite style draws the imagery
 * unfiltered (with the label overlay when labels show); otherwise terrain tiles when terrain
 * shows, unlabelled tiles when labels are hidden, else the site's tiles, each under the
 * style's filter. A look the site has no tiles for falls back to the site's tiles.
 */
export function chooseTiles(options: MapOptions, settings: MapSettings): TileChoice {
  if (options.style === 'Satellite' && settings.satelliteTileUrl) {
    return { base: settings.satelliteTileUrl, overlay: options.showLabels ? settings.labelOverlayUrl : null, filtered: false };
  }
  if (options.showTerrain && settings.terrainTileUrl) return { base: settings.terrainTileUrl, overlay: null, filtered: true };
  if (!options.showLabels && settings.unlabelledTileUrl) return { base: settings.unlabelledTileUrl, overlay: null, filtered: true };
  return { base: settings.tileUrl, overlay: null, filtered: true };
}

/** The accessible name of the map. */
export function mapLabel(options: MapOptions): string {
  return options.title ? `Map of ${options.title}` : 'Map';
}

/**
 * Calls `apply` with the latest value `UPDATE_DEBOUNCE_MS` after the last call of the
 * returned function; earlier values are dropped.
 */
export function debounce<T>(apply: (value: T) => void, wait = UPDATE_DEBOUNCE_MS): ((value: T) => void) & { cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = (value: T) => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      apply(value);
    }, wait);
  };
  return Object.assign(run, {
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  });
}
