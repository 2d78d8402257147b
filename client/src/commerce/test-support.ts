// Shared by the commerce tests: a cart answer and a fetch that records calls.
import { vi } from 'vitest';

/** A call the stubbed fetch received. */
export interface Call {
  url: string;
  method: string;
  body: unknown;
}

/** A cart as the server answers it, with `entries` and totals to taste. */
export function cartAnswer(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'c1',
    entries: [],
    validCoupons: [],
    invalidCoupons: [],
    subtotalCents: 0,
    taxCents: 0,
    shippingCostCents: 0,
    discountCents: 0,
    grandTotalCents: 0,
    totalQuantity: 0,
    subtotalAmount: { currencyCode: 'USD', value: 0 },
    requiresShipping: false,
    ...over,
  };
}

/** Stubs `fetch` with `answer` (status and JSON body per call); returns the recorded calls. */
export function stubFetch(answer: (call: Call) => { status: number; body: unknown }): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input);
      const call = {
        url: url.pathname,
        method: init.method ?? 'GET',
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : null,
      };
      calls.push(call);
      const { status, body } = answer(call);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

/** Lets pending promises and their follow-ups run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}
