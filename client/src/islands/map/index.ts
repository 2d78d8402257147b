// The map island (001 §3, §4 "Map script load"): Leaflet with the site's tiles, or Google
// Maps when the site has a key, above the block's static fallback. New block data sent to
// the block (a `veranda:block-data` event whose detail is the block's JSON, as the editor's
// live changes send it) is applied 60 ms after the last one.
import './map.css';
import { MapIsland, motionAllowed } from './map';
import { readMapSettings } from './options';

/** The event that carries a block's new data. */
export const BLOCK_DATA_EVENT = 'veranda:block-data';

/** Takes over a map block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  const root = el.querySelector<HTMLElement>('.map') ?? el;
  const settings = readMapSettings(root);
  const factory = settings.googleKey
    ? (...args: Parameters<typeof import('./google-view').googleView>) => import('./google-view').then((m) => m.googleView(...args))
    : (...args: Parameters<typeof import('./leaflet-view').leafletView>) => import('./leaflet-view').then((m) => m.leafletView(...args));
  const island = new MapIsland(root, data, settings, factory, motionAllowed(window));
  el.addEventListener(BLOCK_DATA_EVENT, (event) => island.update((event as CustomEvent).detail));
  void island.start();
}
