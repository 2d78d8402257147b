import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flakyFetch, jsonFetch, loadErrors, renderWithClient, retryButton, settleUntil } from '../../test/render';
import { formatVital, rate, VITALS_PATH } from './vitals';
import { VitalsPanel } from './vitals-panel';

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('web-vitals ratings', () => {
  it('follow the web-vitals thresholds, inclusive of the good and poor bounds', () => {
    expect([rate('lcp', 2500), rate('lcp', 2501), rate('lcp', 4000), rate('lcp', 4001)]).toEqual(['good', 'needs-improvement', 'needs-improvement', 'poor']);
    expect([rate('inp', 200), rate('inp', 500), rate('inp', 501)]).toEqual(['good', 'needs-improvement', 'poor']);
    expect([rate('cls', 0.1), rate('cls', 0.25), rate('cls', 0.3)]).toEqual(['good', 'needs-improvement', 'poor']);
    expect([rate('fcp', 1800), rate('fcp', 3000), rate('ttfb', 800), rate('ttfb', 1801)]).toEqual(['good', 'needs-improvement', 'good', 'poor']);
    expect([formatVital('lcp', 2500), formatVital('ttfb', 120), formatVital('cls', 0.05)]).toEqual(['2.5 s', '120 ms', '0.05']);
  });
});

describe('the web-vitals panel', () => {
  it('shows a row per page with each p75 and its rating', async () => {
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        [VITALS_PATH]: {
          pages: [
            { path: '/', lcp: { p75: 2500, count: 4 }, inp: { p75: 600, count: 2 }, cls: { p75: 0.15, count: 4 }, fcp: null, ttfb: { p75: 120, count: 4 } },
            { path: '/about', lcp: null, inp: null, cls: null, fcp: { p75: 1500, count: 1 }, ttfb: null },
          ],
        },
      }),
    );
    const { container } = renderWithClient(<VitalsPanel />);
    await settleUntil(() => container.querySelectorAll('tbody tr').length === 2);
    expect(container.querySelector('h2')?.textContent).toBe('Web vitals');
    expect([...container.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Page', 'LCP', 'INP', 'CLS', 'FCP', 'TTFB']);
    const first = [...container.querySelectorAll('tbody tr')[0]!.querySelectorAll('td')];
    expect(first.map((td) => td.textContent)).toEqual(['2.5 s (good)', '600 ms (poor)', '0.15 (needs improvement)', '—', '120 ms (good)']);
    expect(first.map((td) => td.dataset.rating ?? null)).toEqual(['good', 'poor', 'needs-improvement', null, 'good']);
    expect(container.querySelectorAll('tbody tr')[1]!.querySelector('th')?.textContent).toBe('/about');
  });

  it('says so when nothing was recorded, and Unable to load. Try again. when the vitals cannot be read, reading them again on its Try again', async () => {
    vi.stubGlobal('fetch', jsonFetch({ [VITALS_PATH]: { pages: [] } }));
    const { container } = renderWithClient(<VitalsPanel />);
    await settleUntil(() => container.textContent?.includes('No web vitals recorded recently.') ?? false);
    expect(container.textContent).toContain('No web vitals recorded recently.');
    document.body.innerHTML = '';
    const net = flakyFetch({ [VITALS_PATH]: { pages: [] } });
    vi.stubGlobal('fetch', net.fetch);
    const failed = renderWithClient(<VitalsPanel />).container;
    // The table's read and the over-time charts' read fail apart, each with its own Try again.
    await settleUntil(() => loadErrors(failed).length === 2);
    const [table, overTime] = loadErrors(failed);
    const retry = retryButton(table, 'Network error');
    retryButton(overTime, 'Network error');
    net.heal();
    act(() => retry.click());
    await settleUntil(() => failed.textContent?.includes('No web vitals recorded recently.') ?? false);
    expect(loadErrors(failed)).toEqual([overTime]);
  });
});
