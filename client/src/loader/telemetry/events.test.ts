import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acceptCommonFields, createEvents, RECORD_EVENT_URL, TRACK_PATH } from './events';
import type { SessionInfo } from './session';
import { fakeWindow, formFields, pageContext, removeBeacon, stubBeacon, stubFetch } from './test-support';

const NOW = 1_700_000_000_000;
const session: SessionInfo = { sessionId: 's1', analyticsId: 'a1', isFirstLanding: true, isFirstSession: false };

beforeEach(() => vi.useFakeTimers({ now: NOW }));
afterEach(() => {
  vi.useRealTimers();
  removeBeacon();
});

function page() {
  return fakeWindow({ cookie: 'crumb=cr-1', href: 'https://site.test/shop/tea#reviews' }).win;
}

describe('RecordEvent', () => {
  it('posts crumb, event and the page data form-encoded', async () => {
    const { seen } = stubFetch();
    await createEvents(page(), pageContext(), session).recordEvent('add-to-cart', { variantId: 'var-2' });
    expect(seen[0]!.url).toBe(RECORD_EVENT_URL);
    const fields = formFields(seen[0]!.init.body);
    expect(Object.keys(fields)).toEqual(['crumb', 'event', 'data']);
    expect(fields.crumb).toBe('cr-1');
    expect(fields.event).toBe('add-to-cart');
    expect(JSON.parse(fields.data!)).toEqual({
      pageHash: '#reviews',
      pagePath: '/shop/tea',
      websiteId: 'w1',
      templateId: 't1',
      variantId: 'var-2',
      memberAccountId: null,
      member_locale: 'fr-FR',
      website_locale: 'en-US',
    });
  });

  it('is not sent when the page disables analytics', async () => {
    const { seen } = stubFetch();
    await createEvents(page(), pageContext({ analyticsEnabled: false }), session).recordEvent('x');
    await createEvents(page(), null, null).recordEvent('x');
    expect(seen).toHaveLength(0);
  });
});

describe('the event tracker', () => {
  it('prefers a beacon carrying analyticsId, commonData and customData as JSON strings, and customSchemaName', async () => {
    const beacon = stubBeacon();
    const { seen } = stubFetch();
    await createEvents(page(), pageContext(), session).track('UserMovesCollection', { actor: 'owner', action: 'move' }, { from: 1, to: 2 });
    expect(seen).toHaveLength(0);
    expect(beacon.calls[0]!.url).toBe(TRACK_PATH);
    const blob = beacon.calls[0]!.body as Blob;
    expect(blob.type).toBe('application/json');
    const body = JSON.parse(await blob.text());
    expect(Object.keys(body)).toEqual(['analyticsId', 'commonData', 'customData', 'customSchemaName']);
    expect(body.analyticsId).toBe('a1');
    expect(body.customSchemaName).toBe('UserMovesCollection');
    expect(JSON.parse(body.customData)).toEqual({ from: 1, to: 2 });
    expect(JSON.parse(body.commonData)).toEqual({
      websiteId: 'w1',
      sessionId: 's1',
      pagePath: '/shop/tea',
      isFirstLanding: true,
      isFirstSession: false,
      clientTimestamp: NOW,
      actor: 'owner',
      action: 'move',
    });
  });

  it('falls back to a JSON fetch and accepts 200 and 202 quietly', async () => {
    stubBeacon(false);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const status of [200, 202]) {
      const { seen } = stubFetch(async () => new Response('{}', { status }));
      await createEvents(page(), pageContext(), session, 'https://events.test').track('S');
      expect(seen[0]!.url).toBe('https://events.test/api/v1/events');
      expect(seen[0]!.init).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'application/json' } });
      expect(JSON.parse(String(seen[0]!.init.body)).customSchemaName).toBe('S');
    }
    expect(error).not.toHaveBeenCalled();
  });

  it('logs any other status verbatim', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubFetch(async () => new Response(null, { status: 204 }));
    await createEvents(page(), pageContext(), session).track('S');
    stubFetch(async () => new Response('', { status: 500 }));
    await createEvents(page(), pageContext(), session).track('S');
    expect(error.mock.calls).toEqual([['Error tracking event: HTTP Status 204'], ['Error tracking event: HTTP Status 500']]);
  });

  it('sends a null analyticsId and sessionId when consent keeps them away', async () => {
    const beacon = stubBeacon();
    await createEvents(page(), pageContext(), null).track('S');
    const body = JSON.parse(await (beacon.calls[0]!.body as Blob).text());
    expect(body.analyticsId).toBeNull();
    expect(JSON.parse(body.commonData).sessionId).toBeNull();
  });
});

describe('common fields', () => {
  it('are kept when of the declared type or null', () => {
    expect(acceptCommonFields({ actor: 'a', objectId: null, clientTimestamp: 5, isFirstSession: true })).toEqual({
      actor: 'a',
      objectId: null,
      clientTimestamp: 5,
      isFirstSession: true,
    });
  });

  it('of another type, or undeclared, are warned about and left out', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(acceptCommonFields({ actor: 42, clientTimestamp: '5', productPage: undefined, color: 'red', action: 'ok' })).toEqual({
      action: 'ok',
    });
    expect(warn).toHaveBeenCalledTimes(4);
    expect(String(warn.mock.calls[0]![0])).toContain('actor');
    expect(String(warn.mock.calls[3]![0])).toContain('color');
  });

  it('given to track are checked the same way', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const beacon = stubBeacon();
    await createEvents(page(), pageContext(), session).track('S', { objectType: 7, productSection: 'panel' });
    const common = JSON.parse(JSON.parse(await (beacon.calls[0]!.body as Blob).text()).commonData);
    expect(common.productSection).toBe('panel');
    expect('objectType' in common).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
  });
});
