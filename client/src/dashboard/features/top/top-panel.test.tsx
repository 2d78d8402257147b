import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flakyFetch, jsonFetch, loadErrors, renderWithClient, retryOnceOnline, settleUntil } from '../../test/render';
import { TOP_PATH } from './top';
import { TopPanel } from './top-panel';

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

const rowsOf = (table: Element) => [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent));

describe('the top pages and referrers panel', () => {
  it('lists the top pages and referring sites of the range picked', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      jsonFetch(
        {
          [`${TOP_PATH}?range=24h`]: { range: '24h', pages: [{ key: '/about', count: 1200 }, { key: '/', count: 3 }], referrers: [] },
          [`${TOP_PATH}?range=30d`]: { range: '30d', pages: [{ key: '/', count: 9 }], referrers: [{ key: 'google.com', count: 4 }] },
        },
        asked,
      ),
    );
    const { container } = renderWithClient(<TopPanel />);
    await settleUntil(() => container.querySelectorAll('table').length === 2);
    expect(container.querySelector('h2')?.textContent).toBe('Top pages and referrers');
    const [pages, referrers] = [...container.querySelectorAll('table')];
    expect(pages!.querySelector('caption')?.textContent).toBe('Top pages');
    expect(rowsOf(pages!)).toEqual([
      ['/about', '1,200'],
      ['/', '3'],
    ]);
    expect(rowsOf(referrers!)).toEqual([['None in this range.']]);
    act(() => [...container.querySelectorAll('button')].find((b) => b.textContent === 'Last 30 days')!.click());
    await settleUntil(() => container.textContent?.includes('google.com') ?? false);
    expect(rowsOf(container.querySelectorAll('table')[1]!)).toEqual([['google.com', '4']]);
    expect(asked).toEqual(['/api/stats/top?range=24h', '/api/stats/top?range=30d']);
  });

  it('says Unable to load. Try again. when the lists cannot be read, and reads them again on Try again', async () => {
    const net = flakyFetch({ [`${TOP_PATH}?range=24h`]: { range: '24h', pages: [{ key: '/menu', count: 4 }], referrers: [] } });
    vi.stubGlobal('fetch', net.fetch);
    const { container } = renderWithClient(<TopPanel />);
    await retryOnceOnline(container, net);
    await settleUntil(() => container.querySelector('table') !== null);
    expect(rowsOf(container.querySelector('table')!)).toEqual([['/menu', '4']]);
    expect(loadErrors(container)).toEqual([]);
  });
});
