import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NEWSLETTER_SIGNUP_EVENT as FORM_NEWSLETTER_SIGNUP_EVENT } from '../../islands/form/use-submission';
import { startTelemetry } from './index';
import { NEWSLETTER_SIGNUP_EVENT, listenForPixels } from './ad-pixel';
import { pagePixels } from './landing';
import { clearCookies, formFields, pageContext, stubFetch, type SeenRequest } from './test-support';

// Spec 000 §7: "Ad pixel events fire for add to cart, search, newsletter subscribe, view
// product page and customer account creation."

beforeEach(async () => {
  // The event calls are a lazy chunk: loaded once here, so each test sees its own calls.
  await import('./events');
  vi.useFakeTimers({ now: 1_700_000_000_000 });
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  clearCookies();
  delete window.Veranda;
  history.replaceState(null, '', '/');
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const pixels = (seen: SeenRequest[]) =>
  seen.filter((r) => r.url === '/api/events/RecordEvent').map((r) => formFields(r.init.body));

const product = { pageType: 50, itemId: 'i1', item: { title: 'Linen apron', recordType: 11 } } as const;

describe('ad-pixel events', () => {
  it('a product page fires view-product-page as the telemetry starts', async () => {
    const { seen } = stubFetch();
    startTelemetry(window, pageContext(product as never));
    await vi.waitFor(() => expect(pixels(seen).map((f) => f.event)).toEqual(['view-product-page']));
    const sent = pixels(seen);
    expect(JSON.parse(sent[0]!.data!).websiteId).toBe('w1');
  });

  it('a search with a query fires search; an empty search and other pages fire nothing', () => {
    const at = (href: string) => ({ location: new URL(href) }) as unknown as Window;
    expect(pagePixels(at('https://s.test/search?q=apron'), pageContext({ pageType: 102 } as never))).toEqual(['search']);
    expect(pagePixels(at('https://s.test/search?q=+'), pageContext({ pageType: 102 } as never))).toEqual([]);
    expect(pagePixels(at('https://s.test/blog/a'), pageContext({ pageType: 50, item: { title: 'A', recordType: 1 } } as never))).toEqual(
      [],
    );
    expect(pagePixels(at('https://s.test/'), null)).toEqual([]);
  });

  it('a newsletter sign-up fires newsletter-subscribe', async () => {
    expect(NEWSLETTER_SIGNUP_EVENT).toBe(FORM_NEWSLETTER_SIGNUP_EVENT);
    const { seen } = stubFetch();
    window.Veranda = { context: null, telemetry: startTelemetry(window, pageContext()) };
    const target = new EventTarget() as unknown as Window;
    Object.assign(target, { Veranda: window.Veranda });
    listenForPixels(target);
    target.dispatchEvent(new CustomEvent('veranda:newsletter-signup', { detail: { formId: 'newsletter' } }));
    await vi.waitFor(() => expect(pixels(seen).map((f) => f.event)).toEqual(['newsletter-subscribe']));
  });

  it('send nothing without consent under a restrictive policy, nor with analytics off', async () => {
    const { seen } = stubFetch();
    const target = Object.assign(new EventTarget(), {
      Veranda: { context: null, telemetry: startTelemetry(window, pageContext(product as never, true)) },
    }) as unknown as Window;
    listenForPixels(target);
    target.dispatchEvent(new CustomEvent(NEWSLETTER_SIGNUP_EVENT));
    startTelemetry(window, pageContext({ ...product, analyticsEnabled: false } as never));
    await vi.advanceTimersByTimeAsync(0);
    expect(pixels(seen)).toEqual([]);
  });
});
