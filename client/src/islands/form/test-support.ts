// Shared by the form and newsletter tests: a mocked server and small DOM helpers.
import { act } from 'react';
import { vi } from 'vitest';

/** One request the mocked server saw. */
export interface Seen {
  path: string;
  method: string;
  body: Record<string, unknown> | null;
}

/** An answer: status and JSON body, or a function of the request. */
export type Reply = { status: number; body: unknown } | ((seen: Seen) => { status: number; body: unknown });

/**
 * Mocks fetch: each path answers from its list in order (the last answer repeats). A path
 * mapped to a never-settling promise holds its requests. Returns the requests seen.
 */
export function mockServer(routes: Record<string, Reply[] | 'hold'>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input);
      const request: Seen = {
        path: url.pathname,
        method: init.method ?? 'GET',
        body: typeof init.body === 'string' && init.body.startsWith('{') ? (JSON.parse(init.body) as Record<string, unknown>) : null,
      };
      seen.push(request);
      const route = routes[url.pathname];
      if (route === 'hold') return new Promise<Response>(() => {});
      if (!route || route.length === 0) return new Response('{"error":"no route"}', { status: 404 });
      const reply = route.length > 1 ? route.shift()! : route[0]!;
      const { status, body } = typeof reply === 'function' ? reply(request) : reply;
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return seen;
}

/** Lets pending promises and React updates settle. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

/** Sets an input's value the way typing does (React listens to `input`). */
export function type(el: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Submits a form the way pressing its button does. */
export function submitForm(form: HTMLFormElement): void {
  act(() => {
    form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
  });
}
