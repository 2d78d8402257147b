// Rendering helpers for the dashboard's tests.
import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { expect } from 'vitest';
import { str } from '../../spec-pins/fixtures';

// Cache updates reach components inside the `act` that caused them.
notifyManager.setScheduler((callback) => callback());

/** A cache that never retries, so a refused read shows at once. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
}

/** Renders `node` in a fresh container inside a query provider. */
export function renderWithClient(node: ReactNode, client = testQueryClient()): { container: HTMLElement; root: Root; client: QueryClient } {
  const container = document.createElement('main');
  document.body.append(container);
  const root = createRoot(container);
  act(() => root.render(<QueryClientProvider client={client}>{node}</QueryClientProvider>));
  return { container, root, client };
}

/** Lets pending promises, timers of 0 ms and React updates run, `rounds` times. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i += 1) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  }
}

/** A `fetch` that answers JSON by path (with query), 404 for anything else; records the paths asked. */
export function jsonFetch(answers: Record<string, unknown>, asked: string[] = []): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    asked.push(url);
    if (url in answers) {
      return new Response(JSON.stringify(answers[url]), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    return new Response(JSON.stringify({ error: 'Not here.' }), { status: 404, headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
}

/** Lets React and timers run until `done()` holds, for at most `ms`. */
export async function settleUntil(done: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) {
    await act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));
  }
}

/** A `fetch` that fails as a lost connection does (a TypeError) until `heal()`, then answers like `jsonFetch`. */
export function flakyFetch(answers: Record<string, unknown>, asked: string[] = []): { fetch: typeof fetch; heal(): void } {
  let healed = false;
  const answer = jsonFetch(answers, asked);
  const flaky = ((input: RequestInfo | URL, init?: RequestInit) => {
    if (healed) return answer(input, init);
    asked.push(String(input));
    return Promise.reject(new TypeError('Failed to fetch'));
  }) as typeof fetch;
  return { fetch: flaky, heal: () => (healed = true) };
}

/** The alerts in `container` saying the spec's 'Unable to load. Try again.'. */
export function loadErrors(container: ParentNode): HTMLElement[] {
  const wording = str('interface.unableToLoadTryAgain');
  return [...container.querySelectorAll<HTMLElement>('[role="alert"]')].filter((a) => a.textContent?.includes(wording));
}

/** Checks that `alert` says the spec's wording, then `reason`, and gives its Try again button. */
export function retryButton(alert: Element | undefined, reason: string): HTMLButtonElement {
  expect(alert?.querySelector('p')?.textContent).toBe(`${str('interface.unableToLoadTryAgain')} ${reason}`);
  const button = alert!.querySelector('button');
  expect(button?.textContent).toBe('Try again');
  return button!;
}

/** Checks the one load error in `container` (the spec's wording, then `reason`) and gives its Try again button. */
export function loadError(container: ParentNode, reason: string): HTMLButtonElement {
  const [alert, ...more] = loadErrors(container);
  expect(more).toEqual([]);
  return retryButton(alert, reason);
}

/** Waits for the one load error in `container`, checks it says 'Network error', lets `net` answer again and presses Try again. */
export async function retryOnceOnline(container: ParentNode, net: { heal(): void }): Promise<void> {
  await settleUntil(() => loadErrors(container).length > 0);
  const retry = loadError(container, str('interface.networkError'));
  net.heal();
  act(() => retry.click());
}
