// Test support for the telemetry modules (imported by tests only, never by the loader):
// a recording `fetch`, a recording `sendBeacon`, a recording `XMLHttpRequest`, cookie clean-up and a page context.
import { vi } from 'vitest';
import type { PageContext } from '../../generated/types';

/** One request the fake `fetch` saw. */
export interface SeenRequest {
  /** The URL asked for. */
  url: string;
  /** The init object passed. */
  init: RequestInit;
}

/**
 * Replaces `fetch` with a mock that records every request and answers with `answer`
 * (a 204 by default).
 */
export function stubFetch(answer: (request: SeenRequest) => Promise<Response> = async () => new Response(null, { status: 204 })) {
  const seen: SeenRequest[] = [];
  const mock = vi.fn((url: string | URL | Request, init: RequestInit = {}) => {
    const request = { url: String(url), init };
    seen.push(request);
    return answer(request);
  });
  vi.stubGlobal('fetch', mock);
  return { seen, mock };
}

/** A `fetch` answer that never settles unless its signal aborts. */
export function hangingFetch(request: SeenRequest): Promise<Response> {
  return new Promise((_, reject) => {
    request.init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });
}

/** Replaces `navigator.sendBeacon` with a mock that records calls and answers `accept`. */
export function stubBeacon(accept = true) {
  const calls: Array<{ url: string; body: unknown }> = [];
  const mock = vi.fn((url: string | URL, body?: BodyInit | null) => {
    calls.push({ url: String(url), body });
    return accept;
  });
  Object.defineProperty(navigator, 'sendBeacon', { value: mock, configurable: true, writable: true });
  return { calls, mock };
}

/** Removes `navigator.sendBeacon` again. */
export function removeBeacon(): void {
  delete (navigator as { sendBeacon?: unknown }).sendBeacon;
}

/** One request the fake `XMLHttpRequest` sent. */
export interface SeenXhr {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Replaces `XMLHttpRequest` with a class that records every request it sends (and sends nothing). */
export function stubXhr() {
  const sent: SeenXhr[] = [];
  class FakeXhr {
    private request: SeenXhr = { method: '', url: '', headers: {}, body: null };
    open(method: string, url: string) {
      this.request = { method, url, headers: {}, body: null };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    send(body: unknown) {
      this.request.body = body;
      sent.push(this.request);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { sent };
}

/** Deletes every cookie of `document`. */
export function clearCookies(): void {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

/** The names of the cookies `document` holds. */
export function cookieNames(): string[] {
  return document.cookie
    .split(';')
    .map((part) => part.split('=')[0]!.trim())
    .filter(Boolean)
    .sort();
}

/** Reads a form-encoded body into a plain object. */
export function formFields(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body as URLSearchParams));
}

/** A page context with the fields telemetry reads; `overrides` replace top-level fields. */
export function pageContext(overrides: Partial<PageContext> = {}, restrictive = false): PageContext {
  return {
    website: { id: 'w1', language: 'en-US' },
    websiteSettings: { cookieSettings: { isAnalyticsCookiesDisabled: restrictive } },
    templateId: 't1',
    pageType: 2,
    collectionId: 'c1',
    collection: { title: 'Blog', type: 1, permissionType: 1 },
    itemId: null,
    item: null,
    pageId: 'p1',
    pageTitle: 'Home',
    pagePath: '/',
    analyticsEnabled: true,
    ...overrides,
  } as unknown as PageContext;
}

/** A bare window for modules that only listen and read `location`, `navigator` and `document`. */
export function fakeWindow(options: { cookie?: string; readyState?: DocumentReadyState; href?: string } = {}) {
  const document = Object.assign(new EventTarget(), {
    cookie: options.cookie ?? '',
    visibilityState: 'visible' as DocumentVisibilityState,
    readyState: options.readyState ?? 'complete',
    location: { protocol: 'http:' },
  });
  const href = options.href ?? 'https://site.test/blog/post?x=1';
  const win = Object.assign(new EventTarget(), {
    document,
    location: new URL(href),
    navigator: { userAgent: 'TestAgent/1.0', language: 'fr-FR' },
  });
  /** Makes the page hidden and tells its listeners. */
  const hide = () => {
    document.visibilityState = 'hidden';
    document.dispatchEvent(new Event('visibilitychange'));
  };
  return { win: win as unknown as Window, document, hide };
}
