// The live preview, loaded by the page loader for signed-in contributors: when the account
// may watch the edits stream (the owner or an admin), the page opens it and, for an edit
// event that lists this page's path, fetches the page's fresh HTML and swaps what changed: the
// edited block (`#block-<id>`) when the event names one the page shows, otherwise the main
// content; the title follows. Missed events are asked for again with the last
// `(epoch, offset)` after a dropped connection. Nothing moves or animates.
import type { PageContext } from '../generated/types';
import { hydrateIslands } from '../loader/hydrate';
import { islands } from '../loader/islands';

/** The data of an edits-stream event, as far as the preview reads it. */
export interface EditData {
  /** What was edited: `block`, `item`, `page`, `collection`… */
  objectType?: string;
  /** Its id. */
  objectId?: string;
  /** The site paths whose pages the edit changed. */
  paths?: string[];
}

/** A frame of the edits stream. */
interface StreamFrame {
  type: string;
  epoch?: string;
  offset?: number;
  data?: EditData;
}

/** Close codes after which the preview does not reconnect: signed out, refused, too big. */
const FINAL_CLOSES = new Set([1008, 1003, 1009]);
/** Longest wait before reconnecting, in ms. */
const MAX_RETRY_MS = 30_000;

/** `/about/` and `/about` are the same page. */
function samePath(a: string, b: string): boolean {
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p).toLowerCase();
  return norm(a) === norm(b);
}

/** Whether an edit event changes the page at `pagePath`. */
export function concernsPage(data: EditData | undefined, pagePath: string): boolean {
  return Array.isArray(data?.paths) && data.paths.some((p) => typeof p === 'string' && samePath(p, pagePath));
}

/**
 * Swaps into `doc` what changed in `fresh`, the page as it is now: block `blockId` when both
 * show it, else the main content; and the title. Returns the swapped element, or null.
 */
export function swapChanged(doc: Document, fresh: Document, blockId: string | null): Element | null {
  if (fresh.title) doc.title = fresh.title;
  const pick = (d: Document) => (blockId ? d.getElementById(`block-${blockId}`) : null);
  let current = pick(doc);
  let next = pick(fresh);
  if (!current || !next) {
    current = doc.getElementById('main');
    next = fresh.getElementById('main');
  }
  if (!current || !next) return null;
  const hadFocus = current.contains(doc.activeElement);
  const replacement = doc.importNode(next, true);
  current.replaceWith(replacement);
  if (hadFocus && replacement instanceof HTMLElement) {
    // Keyboard users keep their place: focus moves to the new content, not to the page's top.
    if (!replacement.hasAttribute('tabindex')) replacement.setAttribute('tabindex', '-1');
    replacement.focus({ preventScroll: true });
  }
  // Only the new content's islands start; the rest of the page keeps its running ones.
  const root = {
    querySelectorAll: (selector: string) =>
      [replacement, ...replacement.querySelectorAll(selector)].filter((el) => el.matches(selector)),
  } as unknown as ParentNode;
  hydrateIslands(root, islands);
  return replacement;
}

/** Fetches the page's current HTML; a redirect (the owner redirect) is retried with `noredirect`. */
async function fetchPage(win: Window): Promise<Document | null> {
  const url = new URL(win.location.href);
  url.hash = '';
  let res = await fetch(url, { credentials: 'same-origin', redirect: 'manual', cache: 'no-store' });
  if (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400)) {
    url.searchParams.set('noredirect', '');
    res = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
  }
  if (!res.ok && res.status !== 404) return null;
  return new DOMParser().parseFromString(await res.text(), 'text/html');
}

/** Whether the signed-in account may watch the edits stream (the owner or an admin). */
async function mayWatch(): Promise<boolean> {
  const res = await fetch('/api/site-users/account', { credentials: 'same-origin', cache: 'no-store' });
  if (!res.ok) return false;
  const account = (await res.json()) as { owner?: boolean; roles?: unknown[] };
  return account.owner === true || (account.roles ?? []).some((r) => r === 'admin' || r === 1);
}

/** A live region that tells screen-reader users the page changed. */
function announcer(doc: Document): HTMLElement {
  const el = doc.createElement('div');
  el.setAttribute('role', 'status');
  el.className = 'visually-hidden';
  el.style.cssText = 'position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap';
  doc.body.append(el);
  return el;
}

/** Starts the live preview on `win`'s page; resolves once the stream is opened (or refused). */
export async function startPreview(win: Window, context: PageContext): Promise<void> {
  if (!(await mayWatch().catch(() => false))) return;
  const doc = win.document;
  const status = announcer(doc);
  let cursor: { epoch: string; offset: number } | null = null;
  let retryMs = 1_000;
  let pending: Promise<void> = Promise.resolve();

  const refresh = (data: EditData) => {
    const blockId = data.objectType === 'block' && data.objectId ? data.objectId : null;
    pending = pending
      .then(() => fetchPage(win))
      .then((fresh) => {
        if (!fresh || !swapChanged(doc, fresh, blockId)) return;
        status.textContent = 'This page was updated.';
        // How many times the page was refreshed in place.
        doc.documentElement.dataset.previewUpdates = String(Number(doc.documentElement.dataset.previewUpdates ?? 0) + 1);
      })
      .catch((error: unknown) => console.error('Veranda: the live preview could not refresh the page.', error));
  };

  const connect = () => {
    const url = new URL('/api/streams/edits', win.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (cursor) {
      url.searchParams.set('epoch', cursor.epoch);
      url.searchParams.set('offset', String(cursor.offset));
    }
    const socket = new WebSocket(url);
    socket.addEventListener('message', (message) => {
      let frame: StreamFrame;
      try {
        frame = JSON.parse(String(message.data)) as StreamFrame;
      } catch {
        return;
      }
      if (frame.epoch !== undefined && typeof frame.offset === 'number') {
        cursor = { epoch: frame.epoch, offset: frame.offset };
      }
      if (frame.type === 'hello') {
        retryMs = 1_000;
        doc.documentElement.dataset.preview = 'live';
      } else if (frame.type === 'event' && concernsPage(frame.data, context.pagePath)) {
        refresh(frame.data ?? {});
      } else if (frame.type === 'reset') {
        // Events were missed beyond the stream's history: the whole content is refreshed.
        refresh({});
      }
    });
    socket.addEventListener('close', (event) => {
      doc.documentElement.dataset.preview = 'closed';
      if (FINAL_CLOSES.has(event.code)) return;
      win.setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    });
  };
  connect();
}
