// The Google Maps view, when the site sets a key: the script is loaded with the key,
// language and region (30 s limit), and the six styles map onto Google's map types and
// style rules (001 §3).
import { loadGoogleMaps } from './google';
import type { MapView, ViewFactory } from './map';
import type { MapOptions, MapStyle } from './options';

type Rule = { featureType?: string; elementType?: string; stylers: Record<string, unknown>[] };

const GRAY: Rule[] = [{ stylers: [{ saturation: -100 }] }];
const MINIMAL: Rule[] = [
  { featureType: 'poi', stylers: [{ visibility: 'off' }] },
  { featureType: 'transit', stylers: [{ visibility: 'off' }] },
];

/** Google's style rules for a style (labels hidden when `showLabels` is off). */
export function googleStyles(style: MapStyle, showLabels: boolean): Rule[] {
  const labels: Rule[] = showLabels ? [] : [{ elementType: 'labels', stylers: [{ visibility: 'off' }] }];
  switch (style) {
    case 'Grayscale':
      return [...GRAY, ...labels];
    case 'MinimalLight':
      return [...GRAY, ...MINIMAL, { stylers: [{ lightness: 40 }] }, ...labels];
    case 'MinimalDark':
      return [...GRAY, ...MINIMAL, { stylers: [{ invert_lightness: true }, { lightness: -20 }] }, ...labels];
    case 'MinimalBlue':
      return [...MINIMAL, { stylers: [{ hue: '#2a6fdb' }, { saturation: -40 }] }, ...labels];
    default:
      return labels;
  }
}

/** Google's map type for the options. */
export function googleMapType(options: MapOptions): string {
  if (options.style === 'Satellite') return options.showLabels ? 'hybrid' : 'satellite';
  return options.showTerrain ? 'terrain' : 'roadmap';
}

// The Maps API's surface as used here.
interface GoogleMaps {
  Map: new (el: HTMLElement, options: Record<string, unknown>) => {
    setOptions(o: Record<string, unknown>): void;
    setCenter(c: unknown): void;
    setZoom(z: number): void;
    panTo(c: unknown): void;
  };
  Marker: new (options: Record<string, unknown>) => {
    setPosition(p: unknown): void;
    setMap(m: unknown): void;
    setTitle(t: string): void;
    setDraggable(d: boolean): void;
    addListener(event: string, handler: () => void): unknown;
  };
}

/** Google's map options for `o` (`disableDefaultUI`, or no controls, hides Google's interface). */
export function googleMapOptions(o: MapOptions): Record<string, unknown> {
  return {
    center: o.center,
    zoom: o.zoom,
    mapTypeId: googleMapType(o),
    styles: googleStyles(o.style, o.showLabels),
    draggable: o.draggable,
    gestureHandling: o.scrollwheel ? 'greedy' : 'cooperative',
    scrollwheel: o.scrollwheel,
    zoomControl: o.showControls && !o.disableDefaultUI,
    disableDefaultUI: o.disableDefaultUI || !o.showControls,
    keyboardShortcuts: true,
  };
}

/** Builds the Google Maps view with the site's key. */
export const googleView: ViewFactory = async (canvas, options, settings, motion, onMarkerClick) => {
  const maps = (await loadGoogleMaps(window, settings.googleKey ?? '', settings.language, settings.region)) as GoogleMaps | undefined;
  if (!maps?.Map) throw new Error('Google Maps loaded without its API.');
  const map = new maps.Map(canvas, googleMapOptions(options));
  const marker = new maps.Marker({ position: options.marker, map, title: options.title || 'Marker', draggable: options.markerDraggable });
  marker.addListener('click', onMarkerClick);
  const view: MapView = {
    apply(next) {
      map.setOptions(googleMapOptions(next));
      if (motion) map.panTo(next.center);
      else map.setCenter(next.center);
      map.setZoom(next.zoom);
      marker.setPosition(next.marker);
      marker.setTitle(next.title || 'Marker');
      marker.setDraggable(next.markerDraggable);
    },
    destroy() {
      marker.setMap(null);
      canvas.replaceChildren();
    },
  };
  return view;
};
