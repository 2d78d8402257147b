import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALLBACK, SCRIPT_TIMEOUT_MESSAGE, loadGoogleMaps, scriptUrl } from './google';
import { googleMapOptions, googleMapType, googleStyles } from './google-view';
import { MAP_FAILED, MapIsland, type MapView, type ViewFactory } from './map';
import {
  DEFAULT_TILE_URL,
  MAP_STYLES,
  type MapOptions,
  mapStyle,
  markerLink,
  parseMapOptions,
  readMapSettings,
  chooseTiles,
} from './options';

/** A map block as the server renders it. */
function block(attrs = ''): HTMLElement {
  const section = document.createElement('section');
  section.innerHTML = `<div class="map" data-tile-url="https://tiles.example.test/{z}/{x}/{y}.png" ${attrs}><div class="map-fallback"><address>12 Linden Street</address><p><a href="https://www.openstreetmap.org/">View on OpenStreetMap</a></p></div></div>`;
  document.body.append(section);
  return section.querySelector<HTMLElement>('.map')!;
}

/** A view factory that records what it is asked. */
function fakeFactory(fail = false) {
  const applied: MapOptions[] = [];
  const built: MapOptions[] = [];
  let destroyed = 0;
  let clickMarker = () => {};
  const factory: ViewFactory = async (_canvas, options, _settings, _motion, onMarkerClick) => {
    built.push(options);
    clickMarker = onMarkerClick;
    if (fail) throw new Error('tiles failed');
    const view: MapView = { apply: (o) => applied.push(o), destroy: () => void (destroyed += 1) };
    return view;
  };
  return { factory, applied, built, destroyed: () => destroyed, clickMarker: () => clickMarker() };
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('map options', () => {
  it('takes the spec defaults: centre 40.720882,-74.000988, zoom 12, Grayscale', () => {
    const o = parseMapOptions({});
    expect(o.center).toEqual({ lat: 40.720882, lng: -74.000988 });
    expect(o.zoom).toBe(12);
    expect(o.style).toBe('Grayscale');
    expect(o.marker).toEqual(o.center);
    expect(parseMapOptions(null).zoom).toBe(12);
    expect(parseMapOptions({ mapLat: 'x', mapZoom: 99 }).center.lat).toBe(40.720882);
    expect(parseMapOptions({ mapZoom: 99 }).zoom).toBe(12);
  });

  it('puts the marker at the centre when it is null, and where it is given otherwise', () => {
    expect(parseMapOptions({ mapLat: 51.5, mapLng: -0.12, markerLat: null, markerLng: null }).marker).toEqual({ lat: 51.5, lng: -0.12 });
    expect(parseMapOptions({ mapLat: 51.5, mapLng: -0.12, markerLat: 51.6 }).marker).toEqual({ lat: 51.5, lng: -0.12 });
    expect(parseMapOptions({ mapLat: 51.5, mapLng: -0.12, markerLat: 51.6, markerLng: -0.2 }).marker).toEqual({ lat: 51.6, lng: -0.2 });
  });

  it('knows the six styles by name and id', () => {
    expect(Object.entries(MAP_STYLES)).toEqual([
      ['Original', 1], ['Grayscale', 2], ['Satellite', 3], ['MinimalLight', 4], ['MinimalDark', 5], ['MinimalBlue', 6],
    ]);
    expect([1, 2, 3, 4, 5, 6].map(mapStyle)).toEqual(Object.keys(MAP_STYLES));
    expect(['Neon', 7, undefined].map(mapStyle)).toEqual(['Grayscale', 'Grayscale', 'Grayscale']);
  });

  it('reads the site settings from the element, with OpenStreetMap tiles by default', () => {
    expect(readMapSettings(null).tileUrl).toBe(DEFAULT_TILE_URL);
    const el = block('data-google-maps-key="k" data-language="fr" data-region="CA"');
    expect(readMapSettings(el)).toMatchObject({ tileUrl: 'https://tiles.example.test/{z}/{x}/{y}.png', googleKey: 'k', language: 'fr', region: 'CA' });
    el.setAttribute('data-tile-url', 'javascript:alert(1)');
    expect(readMapSettings(el).tileUrl).toBe(DEFAULT_TILE_URL);
  });

  it('reads the per-look tile addresses, dropping any that is not http(s)', () => {
    const el = block(
      'data-satellite-tile-url="https://imagery.example/{z}/{y}/{x}.jpg" data-label-overlay-url="javascript:alert(1)" ' +
        'data-terrain-tile-url="https://relief.example/{z}/{x}/{y}.png"',
    );
    expect(readMapSettings(el)).toMatchObject({
      satelliteTileUrl: 'https://imagery.example/{z}/{y}/{x}.jpg',
      labelOverlayUrl: null,
      terrainTileUrl: 'https://relief.example/{z}/{x}/{y}.png',
      unlabelledTileUrl: null,
    });
  });

  it('chooses imagery, relief or unlabelled tiles for the look, and the site tiles when it has none', () => {
    const bare = readMapSettings(block(''));
    const all = {
      ...bare,
      satelliteTileUrl: 'https://imagery/{z}/{x}/{y}',
      labelOverlayUrl: 'https://labels/{z}/{x}/{y}',
      terrainTileUrl: 'https://relief/{z}/{x}/{y}',
      unlabelledTileUrl: 'https://plain/{z}/{x}/{y}',
    };
    const satellite = parseMapOptions({ style: 'Satellite' });
    expect(chooseTiles(satellite, all)).toEqual({ base: 'https://imagery/{z}/{x}/{y}', overlay: 'https://labels/{z}/{x}/{y}', filtered: false });
    expect(chooseTiles({ ...satellite, showLabels: false }, all).overlay).toBeNull();
    expect(chooseTiles({ ...satellite, showTerrain: true }, all).base).toBe('https://imagery/{z}/{x}/{y}');
    const gray = parseMapOptions({});
    expect(chooseTiles({ ...gray, showTerrain: true }, all)).toEqual({ base: 'https://relief/{z}/{x}/{y}', overlay: null, filtered: true });
    expect(chooseTiles({ ...gray, showLabels: false }, all)).toEqual({ base: 'https://plain/{z}/{x}/{y}', overlay: null, filtered: true });
    expect(chooseTiles({ ...gray, showTerrain: true, showLabels: false }, all).base).toBe('https://relief/{z}/{x}/{y}');
    expect(chooseTiles(gray, all)).toEqual({ base: bare.tileUrl, overlay: null, filtered: true });
    // Without them, every look draws the site's tiles under the style's filter.
    for (const options of [satellite, { ...gray, showTerrain: true }, { ...gray, showLabels: false }]) {
      expect(chooseTiles(options, bare)).toEqual({ base: bare.tileUrl, overlay: null, filtered: true });
    }
  });

  it('maps styles onto Google map types and rules', () => {
    const o = parseMapOptions({ style: 'Satellite' });
    expect(googleMapType(o)).toBe('hybrid');
    expect(googleMapType({ ...o, showLabels: false })).toBe('satellite');
    expect(googleMapType(parseMapOptions({ showTerrain: true }))).toBe('terrain');
    expect(googleStyles('Original', true)).toEqual([]);
    expect(googleStyles('Grayscale', false)).toContainEqual({ elementType: 'labels', stylers: [{ visibility: 'off' }] });
  });
});

describe('the display options of spec 001 §3', () => {
  it('reads disableDefaultUI, markerDraggable and linkOnClick, each off unless set', () => {
    const off = parseMapOptions({});
    expect([off.disableDefaultUI, off.markerDraggable, off.linkOnClick]).toEqual([false, false, false]);
    const on = parseMapOptions({ disableDefaultUI: true, markerDraggable: true, linkOnClick: true });
    expect([on.disableDefaultUI, on.markerDraggable, on.linkOnClick]).toEqual([true, true, true]);
  });

  it('reads the nested view config {location, ui: {showControls, showTerrain, showLabels, style}}', () => {
    const o = parseMapOptions({
      location: { mapLat: 51.5, mapLng: -0.12, markerLat: 51.6, markerLng: -0.2, mapZoom: 9, addressTitle: 'Porch' },
      ui: { showControls: false, showTerrain: true, showLabels: false, style: 'MinimalDark' },
    });
    expect(o.center).toEqual({ lat: 51.5, lng: -0.12 });
    expect(o.marker).toEqual({ lat: 51.6, lng: -0.2 });
    expect(o.zoom).toBe(9);
    expect(o.title).toBe('Porch');
    expect([o.showControls, o.showTerrain, o.showLabels, o.style]).toEqual([false, true, false, 'MinimalDark']);
    expect(parseMapOptions({ style: 'Original', ui: { style: 'Satellite' }, location: [] }).style).toBe('Original');
    expect(parseMapOptions({ ui: 'x', location: null }).zoom).toBe(12);
  });

  it('sends a marker click to the fallback place link only with linkOnClick', () => {
    const root = block();
    const settings = readMapSettings(root);
    expect(settings.placeUrl).toBe('https://www.openstreetmap.org/');
    expect(markerLink(parseMapOptions({ linkOnClick: true }), settings)).toBe('https://www.openstreetmap.org/');
    expect(markerLink(parseMapOptions({}), settings)).toBeNull();
    root.querySelector('a')!.setAttribute('href', 'javascript:alert(1)');
    expect(readMapSettings(root).placeUrl).toBeNull();
  });

  it('follows the place link when the marker of a linkOnClick map is clicked, and not otherwise', async () => {
    const assign = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign } as Location);
    const root = block();
    const plain = fakeFactory();
    await new MapIsland(root, {}, readMapSettings(root), plain.factory, true).start();
    plain.clickMarker();
    expect(assign).not.toHaveBeenCalled();
    const linked = fakeFactory();
    await new MapIsland(root, { linkOnClick: true }, readMapSettings(root), linked.factory, true).start();
    linked.clickMarker();
    expect(assign).toHaveBeenCalledWith('https://www.openstreetmap.org/');
  });

  it('hides Google’s default interface with disableDefaultUI', () => {
    expect(googleMapOptions(parseMapOptions({ disableDefaultUI: true }))).toMatchObject({ disableDefaultUI: true, zoomControl: false });
    expect(googleMapOptions(parseMapOptions({}))).toMatchObject({ disableDefaultUI: false, zoomControl: true });
  });
});

describe('the map island', () => {
  it('puts a named, focusable map above the fallback, which stays', async () => {
    const root = block();
    const fake = fakeFactory();
    const island = new MapIsland(root, { addressTitle: 'Veranda' }, readMapSettings(root), fake.factory, true);
    expect(await island.start()).toBe(true);
    expect(root.firstElementChild).toBe(island.canvas);
    expect(island.canvas.getAttribute('role')).toBe('region');
    expect(island.canvas.getAttribute('aria-label')).toBe('Map of Veranda');
    expect(island.canvas.tabIndex).toBe(0);
    expect(root.querySelector('.map-fallback address')).not.toBeNull();
    expect(fake.built[0]!.marker).toEqual({ lat: 40.720882, lng: -74.000988 });
  });

  it('applies option updates 60 ms after the last one', async () => {
    vi.useFakeTimers();
    const root = block();
    const fake = fakeFactory();
    const island = new MapIsland(root, {}, readMapSettings(root), fake.factory, true);
    await island.start();
    island.update({ mapZoom: 13 });
    vi.advanceTimersByTime(40);
    island.update({ mapZoom: 14 });
    vi.advanceTimersByTime(59);
    expect(fake.applied).toEqual([]);
    island.update({ mapZoom: 15, addressTitle: 'Porch' });
    vi.advanceTimersByTime(59);
    expect(fake.applied).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fake.applied.map((o) => o.zoom)).toEqual([15]);
    expect(island.canvas.getAttribute('aria-label')).toBe('Map of Porch');
  });

  it('leaves the fallback and logs when the view fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const root = block();
    const island = new MapIsland(root, {}, readMapSettings(root), fakeFactory(true).factory, true);
    expect(await island.start()).toBe(false);
    expect(root.querySelector('.map-canvas')).toBeNull();
    expect(root.classList.contains('map--failed')).toBe(true);
    expect(root.querySelector('.map-fallback a')!.textContent).toBe('View on OpenStreetMap');
    expect(warn).toHaveBeenCalledWith(MAP_FAILED, expect.any(Error));
  });
});

describe('the Google Maps script', () => {
  /** A window of its own, so each test loads the script afresh. */
  function freshWindow(): Window {
    const doc = document.implementation.createHTMLDocument('maps');
    return {
      document: doc,
      setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
      clearTimeout: (t: ReturnType<typeof setTimeout>) => clearTimeout(t),
    } as unknown as Window;
  }

  it('is loaded with the key, language and region', () => {
    const url = new URL(scriptUrl('k-1', 'fr', 'CA'));
    expect(url.origin + url.pathname).toBe('https://maps.googleapis.com/maps/api/js');
    expect(url.searchParams.get('key')).toBe('k-1');
    expect(url.searchParams.get('language')).toBe('fr');
    expect(url.searchParams.get('region')).toBe('CA');
    expect(url.searchParams.get('callback')).toBe(CALLBACK);
    expect(new URL(scriptUrl('k', null, null)).searchParams.has('language')).toBe(false);
  });

  it('stays pending until its callback fires', async () => {
    vi.useFakeTimers();
    const win = freshWindow();
    const loading = loadGoogleMaps(win, 'k', null, null);
    expect(win.document.head.querySelector('script')!.src).toContain('key=k');
    let settled = false;
    void loading.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(settled).toBe(false);
    const w = win as unknown as Record<string, unknown>;
    w.google = { maps: { Map: 'api' } };
    (w[CALLBACK] as () => void)();
    await expect(loading).resolves.toEqual({ Map: 'api' });
    expect(loadGoogleMaps(win, 'k', null, null)).toBe(loading);
  });

  it('fails when no callback arrives within 30 s', async () => {
    vi.useFakeTimers();
    const win = freshWindow();
    const loading = loadGoogleMaps(win, 'k', null, null);
    const outcome = loading.then(() => 'loaded', (e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(29_999);
    let done = false;
    void outcome.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe(SCRIPT_TIMEOUT_MESSAGE);
    expect((win as unknown as Record<string, unknown>)[CALLBACK]).toBeUndefined();
  });
});
