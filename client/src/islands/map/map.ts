// The map island's controller: inserts the interactive map above the block's static
// fallback (the address and a link to the place, which stays in the HTML), builds the
// view (Leaflet with the site's tiles, or Google Maps when the site has a key), and
// applies option updates 60 ms after the last one. A view that fails (script, tiles)
// is removed, and the fallback is what the visitor sees; the failure is logged.
import { type MapOptions, type MapSettings, debounce, mapLabel, markerLink, parseMapOptions } from './options';

/** A built map: it takes new options and can be taken down. */
export interface MapView {
  apply(options: MapOptions): void;
  destroy(): void;
}

/**
 * What builds a view. `motion` is false under reduced motion (no animated pan or zoom);
 * the view calls `onMarkerClick` when the marker is clicked.
 */
export type ViewFactory = (
  canvas: HTMLElement,
  options: MapOptions,
  settings: MapSettings,
  motion: boolean,
  onMarkerClick: () => void,
) => Promise<MapView>;

/** The console warning of a map that could not be shown (000 §8: failing map render, console only; a warning, since the address is still shown). */
export const MAP_FAILED = 'Veranda: the map could not be shown; the address is shown instead.';

/** Whether animated pan and zoom are allowed: not under reduced motion, not under `nomotion=true`. */
export function motionAllowed(win: Window): boolean {
  if (new URLSearchParams(win.location.search).get('nomotion') === 'true') return false;
  return !win.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/** One map block on the page. */
export class MapIsland {
  /** The element the map draws in. */
  readonly canvas: HTMLElement;
  /** The current options. */
  options: MapOptions;
  private view: MapView | null = null;
  private failed = false;
  private readonly debounced: ((data: unknown) => void) & { cancel(): void };

  constructor(
    private readonly root: HTMLElement,
    data: unknown,
    private readonly settings: MapSettings,
    private readonly factory: ViewFactory,
    private readonly motion: boolean,
  ) {
    this.options = parseMapOptions(data);
    const doc = root.ownerDocument;
    this.canvas = doc.createElement('div');
    this.canvas.className = 'map-canvas';
    this.canvas.setAttribute('role', 'region');
    this.canvas.setAttribute('aria-label', mapLabel(this.options));
    this.canvas.tabIndex = 0;
    const fallback = root.querySelector('.map-fallback');
    if (fallback) fallback.before(this.canvas);
    else root.prepend(this.canvas);
    this.debounced = debounce((next: unknown) => this.applyNow(next));
  }

  /** Builds the view; a failure removes the canvas and leaves the fallback. */
  async start(): Promise<boolean> {
    try {
      this.view = await this.factory(this.canvas, this.options, this.settings, this.motion, () => this.markerClicked());
      if (this.failed) {
        this.view.destroy();
        this.view = null;
        return false;
      }
      this.root.classList.add('map--interactive');
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /** Takes the map down after a failure (script or tiles); the fallback stays. */
  fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    console.warn(MAP_FAILED, error);
    this.debounced.cancel();
    this.view?.destroy();
    this.view = null;
    this.canvas.remove();
    this.root.classList.remove('map--interactive');
    this.root.classList.add('map--failed');
  }

  /** A marker click: with `linkOnClick`, the page goes to the place's link. */
  markerClicked(): void {
    const url = markerLink(this.options, this.settings);
    if (url) this.root.ownerDocument.defaultView?.location.assign(url);
  }

  /** New block data: applied 60 ms after the last update. */
  update(data: unknown): void {
    if (!this.failed) this.debounced(data);
  }

  private applyNow(data: unknown): void {
    this.options = parseMapOptions(data);
    this.canvas.setAttribute('aria-label', mapLabel(this.options));
    this.view?.apply(this.options);
  }
}
