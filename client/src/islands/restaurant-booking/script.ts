// The provider's booking widget (spec 001 §7: "a restaurant booking script and a
// table-booking widget script load from a remote URL"; §4: loading, then loaded). The
// server renders the restaurant's name, phone and a link to the provider's booking page;
// the widget script is only an enhancement on top: the block is marked
// `data-state="loading"`, then `"loaded"` when the script has loaded, or `"failed"` when it
// could not load or took longer than 10 s (the social follow script's limit), and the link
// stays in every case, so booking always works.
//
// Per provider:
// - OpenTable: its table-booking widget loader, one URL per restaurant (`rid`) and theme
//   (`wide` for a block wider than 850 px, else `standard`); the script draws the widget
//   where it stands, so it goes into the block's widget container.
// - Tock: one script for every restaurant; the restaurant is named by queueing
//   `tock('init', id)` before it loads (the provider's own embed does the same), and the
//   widget draws into `#Tock_widget_container` (one per page: a second Tock block on a
//   page shares the first one's).
import { loadScript } from '../../widgets/script/script';
import { OPENTABLE_WIDE_ABOVE_PX } from './layout';

/** How long a provider's widget script may take to load (as the social follow script). */
export const BOOKING_SCRIPT_TIMEOUT_MS = 10_000;

/** The OpenTable table-booking widget loader. */
export const OPENTABLE_SCRIPT_URL = 'https://www.opentable.com/widget/reservation/loader';
/** The Tock restaurant booking script. */
export const TOCK_SCRIPT_URL = 'https://www.exploretock.com/tock.js';
/** The element id Tock's script draws its widget into. */
export const TOCK_CONTAINER_ID = 'Tock_widget_container';

/** Where a block's provider widget is: `loading`, then `loaded` or `failed` (the link stays). */
export type BookingState = 'loading' | 'loaded' | 'failed';

/** What is needed to load one provider's widget. */
interface Provider {
  /** The script's URL for restaurant `id` in a block `width` px wide. */
  scriptUrl(id: string, width: number): string;
  /** Makes the block's widget container ready; gives where the script goes. */
  prepare(win: Window, container: HTMLElement, id: string): ParentNode;
}

/** Tock's command queue, as its own embed sets it up before its script arrives. */
interface TockQueue {
  (...args: unknown[]): void;
  queue: unknown[][];
  callMethod?: (...args: unknown[]) => void;
  push?: unknown;
  loaded?: boolean;
  version?: string;
}

type TockWindow = Window & { tock?: TockQueue; _tock?: TockQueue };

/** Sets up `win.tock` (unless the script or a queue is there already) and queues `init`. */
function queueTockInit(win: TockWindow, id: string): void {
  if (!win.tock) {
    const tock = ((...args: unknown[]) => {
      if (tock.callMethod) tock.callMethod(...args);
      else tock.queue.push(args);
    }) as TockQueue;
    tock.queue = [];
    tock.push = tock;
    tock.loaded = true;
    tock.version = '1.0';
    win.tock = tock;
    win._tock ??= tock;
  }
  win.tock('init', id);
}

/** The providers, by the lowercase name in the block's data. */
const PROVIDERS: Readonly<Record<string, Provider>> = {
  opentable: {
    scriptUrl: (id, width) => {
      const query = new URLSearchParams({
        rid: id,
        type: 'standard',
        theme: width > OPENTABLE_WIDE_ABOVE_PX ? 'wide' : 'standard',
        iframe: 'true',
        domain: 'com',
        lang: 'en-US',
        newtab: 'false',
      });
      return `${OPENTABLE_SCRIPT_URL}?${query.toString()}`;
    },
    prepare: (_win, container) => container,
  },
  tock: {
    scriptUrl: () => TOCK_SCRIPT_URL,
    prepare: (win, container, id) => {
      const doc = win.document;
      if (!doc.getElementById(TOCK_CONTAINER_ID)) {
        const target = doc.createElement('div');
        target.id = TOCK_CONTAINER_ID;
        target.dataset.tockDisplayMode = 'Button';
        target.dataset.tockColorMode = 'Blue';
        target.dataset.tockLocale = (doc.documentElement.lang || 'en-us').toLowerCase();
        container.append(target);
      }
      queueTockInit(win as TockWindow, id);
      return doc.head;
    },
  },
};

/** The script URL of `provider`'s widget for restaurant `id` in a block `width` px wide; `null` when unknown. */
export function bookingScriptUrl(provider: string, id: string, width: number): string | null {
  const known = PROVIDERS[provider.trim().toLowerCase()];
  const restaurant = id.trim();
  return known && restaurant !== '' ? known.scriptUrl(restaurant, width) : null;
}

/** Sets the state of the block `el` and gives it back. */
function mark(el: HTMLElement, state: BookingState): BookingState {
  el.dataset.state = state;
  return state;
}

/**
 * Loads `provider`'s widget for restaurant `id` into the block `el`; resolves with how it
 * ended, or `null` (nothing loaded, nothing marked) for an unknown provider or no id.
 */
export async function startBookingWidget(win: Window, el: HTMLElement, provider: string, id: string): Promise<BookingState | null> {
  const url = bookingScriptUrl(provider, id, el.clientWidth);
  const known = PROVIDERS[provider.trim().toLowerCase()];
  if (!url || !known) return null;
  mark(el, 'loading');
  const container = win.document.createElement('div');
  container.className = 'restaurant-booking__widget';
  el.append(container);
  try {
    const parent = known.prepare(win, container, id.trim());
    await loadScript(win.document, url, BOOKING_SCRIPT_TIMEOUT_MS, parent);
    return mark(el, 'loaded');
  } catch {
    container.remove();
    return mark(el, 'failed');
  }
}
