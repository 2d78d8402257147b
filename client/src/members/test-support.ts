// Shared pieces of the members tests: page contexts and a scripted `fetch`.
import { vi } from 'vitest';
import type { PageContext } from '../generated/types';

/** A page context with just the fields the members code reads. */
export function context(over: {
  signedIn?: boolean;
  roles?: number[];
  escapeToLogin?: boolean;
  developerMode?: boolean;
  cloneable?: boolean;
}): PageContext {
  return {
    authenticatedAccount: over.signedIn ? { id: 'a'.repeat(24) } : null,
    // The website roles map: each held role id → true.
    websiteRoles: Object.fromEntries((over.roles ?? []).map((role) => [role, true])),
    accessPermissions: [],
    website: { developerMode: over.developerMode ?? false, cloneable: over.cloneable ?? false },
    websiteSettings: { useEscapeKeyToLogin: over.escapeToLogin ?? false },
  } as unknown as PageContext;
}

/** One scripted answer. */
export interface Answer {
  status: number;
  body: unknown;
}

/** Replaces `fetch` with one that gives `answers` in order; returns the mock. */
export function scriptFetch(...answers: Answer[]) {
  const queue = [...answers];
  const mock = vi.fn(async (_url: string, _init?: RequestInit) => {
    const next = queue.shift() ?? { status: 500, body: { error: 'no more answers' } };
    return new Response(JSON.stringify(next.body), {
      status: next.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** Sets the crumb cookie as the server would. */
export function setCrumb(value: string): void {
  document.cookie = `crumb=${value}; path=/`;
}
