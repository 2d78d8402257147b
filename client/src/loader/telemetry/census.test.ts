import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CENSUS_TIMEOUT_MS, createCensus } from './census';
import { formFields, hangingFetch, pageContext, stubFetch } from './test-support';

const NOW = 1_700_000_000_000;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
  window.history.replaceState(null, '', '/blog/post-1?utm_source=mail');
  document.title = 'Post 1';
});
afterEach(() => {
  vi.useRealTimers();
  window.history.replaceState(null, '', '/');
});

describe('RecordHit', () => {
  it('posts event=view, the data fields of spec 000 §7 and ss_cvr, form-encoded', async () => {
    const { seen } = stubFetch();
    await createCensus(window, pageContext(), 'v1|1|2|3|4').recordHit();
    expect(seen).toHaveLength(1);
    const [{ url, init }] = seen as [(typeof seen)[0]];
    expect(url).toBe('/api/census/RecordHit');
    expect(init.method).toBe('POST');
    expect(init.body).toBeInstanceOf(URLSearchParams);
    const fields = formFields(init.body);
    expect(Object.keys(fields)).toEqual(['event', 'data', 'ss_cvr']);
    expect(fields.event).toBe('view');
    expect(fields.ss_cvr).toBe('v1|1|2|3|4');
    expect(JSON.parse(fields.data!)).toEqual({
      userAgent: navigator.userAgent,
      clientDate: NOW,
      viewportInnerWidth: window.innerWidth,
      viewportInnerHeight: window.innerHeight,
      screenWidth: window.screen.width,
      screenHeight: window.screen.height,
      websiteId: 'w1',
      templateId: 't1',
      website_locale: 'en-US',
      url: '/blog/post-1',
      title: 'Post 1',
      collectionId: 'c1',
      recordType: null,
      queryString: '?utm_source=mail',
      referrer: '',
      localStorageSupported: true,
    });
  });

  it('carries itemId and the record type on an item page, instead of collectionId', async () => {
    const { seen } = stubFetch();
    await createCensus(window, pageContext({ itemId: 'i9', item: { title: 'Post 1', recordType: 1 } }), '').recordHit();
    const data = JSON.parse(formFields(seen[0]!.init.body).data!);
    expect(data.itemId).toBe('i9');
    expect(data.recordType).toBe(1);
    expect('collectionId' in data).toBe(false);
  });

  it('sends event=search on /search instead of a page view', async () => {
    window.history.replaceState(null, '', '/search?q=tea');
    const { seen } = stubFetch();
    await createCensus(window, pageContext(), '').recordHit();
    expect(formFields(seen[0]!.init.body).event).toBe('search');
  });

  it('sends nothing when the page context disables analytics, under /config, or without a context', async () => {
    const { seen } = stubFetch();
    await createCensus(window, pageContext({ analyticsEnabled: false }), '').recordHit();
    await createCensus(window, null, '').recordHit();
    window.history.replaceState(null, '', '/config/design');
    await createCensus(window, pageContext(), '').recordHit();
    window.history.replaceState(null, '', '/config');
    await createCensus(window, pageContext(), '').recordHit();
    expect(seen).toHaveLength(0);
  });

  it('counts a page whose path only starts with the letters of /config', async () => {
    const { seen } = stubFetch();
    window.history.replaceState(null, '', '/configuration');
    await createCensus(window, pageContext(), '').recordHit();
    window.history.replaceState(null, '', '/config-tips/one');
    await createCensus(window, pageContext(), '').recordHit();
    expect(seen).toHaveLength(2);
  });

  it('gives up after 2,500 ms and swallows the abort', async () => {
    const { seen } = stubFetch(hangingFetch);
    let settled = false;
    void createCensus(window, pageContext(), '').recordHit().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(CENSUS_TIMEOUT_MS - 1);
    expect(seen[0]!.init.signal!.aborted).toBe(false);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen[0]!.init.signal!.aborted).toBe(true);
    expect(settled).toBe(true);
    expect(CENSUS_TIMEOUT_MS).toBe(2500);
  });

  it('swallows network failures and error statuses', async () => {
    stubFetch(() => Promise.reject(new TypeError('offline')));
    await expect(createCensus(window, pageContext(), '').recordHit()).resolves.toBeUndefined();
    stubFetch(async () => new Response('no', { status: 500 }));
    await expect(createCensus(window, pageContext(), '').recordHit()).resolves.toBeUndefined();
  });
});

describe('island census calls', () => {
  const button = {
    id: 'b1',
    buttonText: 'Buy',
    clickthroughUrl: '/shop',
    alignment: 'center',
    size: 'medium',
    newWindow: false,
    context: 'button-block',
  };
  const page = { visitorCookie: 'v1|1|2|3|4', pageTitle: 'Home', pageId: 'p1', contentSource: 'c', pagePath: '/', pagePermissionTypeValue: '1' };

  it('send the button fields, the visitor cookie and the page fields', async () => {
    const { seen } = stubFetch();
    const census = createCensus(window, pageContext(), 'v1|1|2|3|4');
    await census.buttonRender(button);
    await census.buttonClick(button);
    expect(seen.map((r) => r.url)).toEqual(['/api/census/button-render', '/api/census/button-click']);
    expect(formFields(seen[1]!.init.body)).toEqual({ ...button, newWindow: 'false', ...page });
  });

  it('send the form id, or the overlay event, with the same page fields', async () => {
    const { seen } = stubFetch();
    const census = createCensus(window, pageContext({ itemId: 'i1', pageId: null }), 'v1|1|2|3|4');
    await census.formRender('f7');
    await census.overlay('close');
    expect(seen.map((r) => r.url)).toEqual(['/api/census/form-render', '/api/census/overlay']);
    expect(formFields(seen[0]!.init.body)).toEqual({ formId: 'f7', ...page, pageId: '', contentSource: 'i' });
    expect(formFields(seen[1]!.init.body)).toMatchObject({ event: 'close', visitorCookie: 'v1|1|2|3|4' });
  });

  it('are silent when analytics are off', async () => {
    const { seen } = stubFetch();
    const census = createCensus(window, pageContext({ analyticsEnabled: false }), '');
    await census.buttonClick(button);
    await census.formRender('f');
    await census.overlay('show');
    expect(seen).toHaveLength(0);
  });
});
