import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './app';
import { readConfig } from './config';
import { fakeTransport, type FakeSocket } from './test/fake-socket';
import { jsonFetch, settleUntil, testQueryClient } from './test/render';

vi.mock('uplot', async () => ({ default: (await import('./test/fake-uplot')).FakeUPlot }));

afterEach(() => {
  document.body.innerHTML = '';
});

function shell(frameUrl: string, panels = 'edits errors forms', signedIn = true): HTMLElement {
  document.body.innerHTML = `<main id="dashboard-root" data-frame-url="${frameUrl}" data-panels="${panels}" data-signed-in="${signedIn}"><h1>Configuration · Demo</h1></main>`;
  return document.getElementById('dashboard-root')!;
}

describe('the dashboard', () => {
  it('shows the heading, the preview of data-frame-url and the three live panels', async () => {
    vi.stubGlobal('fetch', jsonFetch({ '/api/events/errors': { groups: [], records: [] }, '/api/form/forms': { forms: [] } }));
    const sockets: FakeSocket[] = [];
    const root = shell('/menu?x=1');
    const reactRoot = createRoot(root);
    act(() => reactRoot.render(<App config={readConfig(root)} queryClient={testQueryClient()} transport={fakeTransport(sockets)} />));
    await settleUntil(() => root.querySelectorAll('h2').length === 4 && sockets.length === 2);
    expect(root.querySelector('h1')?.textContent).toBe('Configuration');
    expect(root.querySelector('iframe')?.getAttribute('src')).toBe('/menu?x=1');
    expect(root.querySelector('iframe')?.title).toBe('Site preview');
    expect([...root.querySelectorAll('h2')].map((h) => h.textContent)).toEqual([
      'Previewing /menu?x=1',
      'Edits',
      'Errors',
      'Form submissions',
    ]);
    expect(sockets.map((s) => s.url).sort()).toEqual(['/api/streams/edits', '/api/streams/errors']);
    act(() => reactRoot.unmount());
    expect(sockets.every((s) => s.closedWith === 1000)).toBe(true);
  });

  it('opens no stream and reads nothing when no panel is allowed, and says why', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', jsonFetch({}, asked));
    for (const [signedIn, text] of [
      [false, 'Sign in to follow the live edits, errors and form submissions.'],
      [true, 'Your account does not have permission for the live edits, errors and form submissions.'],
    ] as const) {
      const sockets: FakeSocket[] = [];
      const root = shell('/menu', '', signedIn);
      const reactRoot = createRoot(root);
      act(() => reactRoot.render(<App config={readConfig(root)} queryClient={testQueryClient()} transport={fakeTransport(sockets)} />));
      await settleUntil(() => false, 100);
      expect(root.textContent).toContain(text);
      expect(sockets).toEqual([]);
      if (!signedIn) {
        expect(root.querySelector('a[href^="/account/login"]')?.getAttribute('href')).toBe(
          '/account/login?returnUrl=%2Fconfig%2F%3FframeUrl%3D%252Fmenu',
        );
      }
      act(() => reactRoot.unmount());
    }
    expect(asked).toEqual([]);
  });

  it('shows only the panels the shell names', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    const sockets: FakeSocket[] = [];
    const root = shell('/', 'edits bogus');
    expect(readConfig(root).panels).toEqual(['edits']);
    const reactRoot = createRoot(root);
    act(() => reactRoot.render(<App config={readConfig(root)} queryClient={testQueryClient()} transport={fakeTransport(sockets)} />));
    await settleUntil(() => root.querySelectorAll('h2').length === 2 && sockets.length === 1);
    expect([...root.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(['Previewing /', 'Edits']);
    expect(sockets.map((s) => s.url)).toEqual(['/api/streams/edits']);
    act(() => reactRoot.unmount());
  });

  it('previews / when the frame URL is not a same-site path', () => {
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil', '', 'javascript:alert(1)']) {
      expect(readConfig(shell(bad)).frameUrl).toBe('/');
    }
    expect(readConfig(shell('/about')).frameUrl).toBe('/about');
  });
});
