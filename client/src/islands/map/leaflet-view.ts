// The Leaflet view: the site's tiles (OpenStreetMap by default), a marker, Leaflet's
// keyboard support, and the six styles as filters over the tiles (001 §3). Satellite,
// showTerrain and showLabels switch to the site's imagery, relief, label-overlay and
// unlabelled tiles when `[maps]` names them (`chooseTiles`); without them Satellite
// shows the site's tiles unfiltered and the two flags leave the tiles as they are.
import type * as Leaflet from 'leaflet';
import type { MapView, ViewFactory } from './map';
import { chooseTiles, type MapOptions, type MapStyle } from './options';

/** The class that gives the tiles a style's look; none for tiles drawn as they are. */
export function styleClass(style: MapStyle, filtered = true): string {
  return filtered ? `map-canvas--${style.toLowerCase()}` : 'map-canvas--unfiltered';
}

/** Builds the Leaflet view; rejects when no tile of the first view loads. */
export const leafletView: ViewFactory = async (canvas, options, settings, motion, onMarkerClick) => {
  const [mod] = await Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')]);
  const L = ((mod as { default?: typeof Leaflet }).default ?? mod) as typeof Leaflet;
  const map = L.map(canvas, {
    center: [options.center.lat, options.center.lng],
    zoom: options.zoom,
    keyboard: true,
    zoomAnimation: motion,
    fadeAnimation: motion,
    markerZoomAnimation: motion,
    inertia: motion,
    attributionControl: true,
  });
  // Leaflet gives the container tabindex 0 for its keyboard support; the name stays ours.
  canvas.tabIndex = 0;
  const first = chooseTiles(options, settings);
  const tiles = L.tileLayer(first.base, { attribution: escapeText(settings.attribution), maxZoom: 19 });
  let baseUrl = first.base;
  let overlay: Leaflet.TileLayer | null = null;
  let overlayUrl: string | null = null;
  const icon = L.divIcon({ className: 'map-marker', iconSize: [24, 24], iconAnchor: [12, 24], html: '' });
  const marker = L.marker([options.marker.lat, options.marker.lng], {
    icon,
    keyboard: true,
    title: options.title || 'Marker',
    alt: options.title || 'Marker',
    draggable: options.markerDraggable,
  });
  const zoom = L.control.zoom();
  let controls = false;

  const apply = (next: MapOptions) => {
    map.setView([next.center.lat, next.center.lng], next.zoom, { animate: motion });
    marker.setLatLng([next.marker.lat, next.marker.lng]);
    const el = marker.getElement();
    if (el) el.title = next.title || 'Marker';
    next.draggable ? map.dragging.enable() : map.dragging.disable();
    if (marker.dragging) next.markerDraggable ? marker.dragging.enable() : marker.dragging.disable();
    next.scrollwheel ? map.scrollWheelZoom.enable() : map.scrollWheelZoom.disable();
    const wantControls = next.showControls && !next.disableDefaultUI;
    if (wantControls && !controls) zoom.addTo(map);
    if (!wantControls && controls) zoom.remove();
    controls = wantControls;
    const chosen = chooseTiles(next, settings);
    if (chosen.base !== baseUrl) tiles.setUrl(chosen.base);
    baseUrl = chosen.base;
    if (chosen.overlay !== overlayUrl) {
      overlay?.remove();
      overlay = chosen.overlay ? L.tileLayer(chosen.overlay, { maxZoom: 19, zIndex: 2, className: 'map-label-overlay' }).addTo(map) : null;
      overlayUrl = chosen.overlay;
    }
    for (const c of Array.from(canvas.classList)) if (c.startsWith('map-canvas--')) canvas.classList.remove(c);
    canvas.classList.add(styleClass(next.style, chosen.filtered));
  };
  // Leaflet adds its own zoom control; the options decide.
  map.zoomControl.remove();

  const ready = new Promise<void>((resolve, reject) => {
    let loaded = 0;
    tiles.on('tileload', () => {
      loaded += 1;
      if (loaded === 1) resolve();
    });
    tiles.on('load', () => (loaded > 0 ? resolve() : reject(new Error('No map tile could be loaded.'))));
  });
  tiles.addTo(map);
  marker.on('click', onMarkerClick);
  marker.addTo(map);
  apply(options);
  try {
    await ready;
  } catch (error) {
    map.remove();
    throw error;
  }
  const view: MapView = {
    apply,
    destroy: () => map.remove(),
  };
  return view;
};

function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
