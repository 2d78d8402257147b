import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flakyFetch, jsonFetch, loadError, loadErrors, renderWithClient, retryOnceOnline, settleUntil } from '../../test/render';
import { VISITORS_PATH, VISITORS_REFRESH_MS } from './visitors';
import { VisitorsPanel } from './visitors-panel';

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.useRealTimers();
  Reflect.deleteProperty(document, 'visibilityState');
});

const figures = (live: number, lastHour: number, today: number) => ({ liveVisitors: live, pageViews: { lastHour, today } });

const figure = (container: HTMLElement, name: string) => container.querySelector(`[data-figure="${name}"]`)?.textContent;

/** A fetch answering the figures in turn, the last one again after that. */
function answering(...answers: object[]) {
  const asked: string[] = [];
  let i = 0;
  vi.stubGlobal('fetch', (input: string) => {
    const answer = answers[Math.min(i, answers.length - 1)]!;
    i += 1;
    return jsonFetch({ [VISITORS_PATH]: answer }, asked)(input);
  });
  return asked;
}

describe('the visitors panel', () => {
  it('shows live visitors and page views and reads them again every 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked = answering(figures(2, 5, 40), figures(3, 6, 41));
    const { container } = renderWithClient(<VisitorsPanel />);
    await settleUntil(() => figure(container, 'live') === '2');
    expect(container.querySelector('h2')?.textContent).toBe('Visitors');
    expect([figure(container, 'last-hour'), figure(container, 'today')]).toEqual(['5', '40']);
    await act(() => vi.advanceTimersByTimeAsync(VISITORS_REFRESH_MS));
    await settleUntil(() => figure(container, 'live') === '3');
    expect(figure(container, 'today')).toBe('41');
    expect(asked).toEqual([VISITORS_PATH, VISITORS_PATH]);
  });

  it('stops polling while the tab is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const asked = answering(figures(1, 1, 1));
    const { container } = renderWithClient(<VisitorsPanel />);
    await settleUntil(() => figure(container, 'live') === '1');
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    await act(() => vi.advanceTimersByTimeAsync(3 * VISITORS_REFRESH_MS));
    expect(asked).toHaveLength(1);
  });

  it('says Unable to load. Try again. with the reason when the figures cannot be read, and reads them again on Try again', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    const refused = renderWithClient(<VisitorsPanel />).container;
    await settleUntil(() => loadErrors(refused).length > 0);
    loadError(refused, 'Not here.');
    document.body.innerHTML = '';
    const net = flakyFetch({ [VISITORS_PATH]: figures(3, 40, 200) });
    vi.stubGlobal('fetch', net.fetch);
    const { container } = renderWithClient(<VisitorsPanel />);
    await retryOnceOnline(container, net);
    await settleUntil(() => figure(container, 'live') === '3');
    expect(loadErrors(container)).toEqual([]);
  });
});
