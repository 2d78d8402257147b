import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { str } from '../spec-pins/fixtures';
import { App } from './app';
import { readConfig } from './config';
import { fakeTransport, type FakeSocket } from './test/fake-socket';
import { jsonFetch, settleUntil, testQueryClient } from './test/render';

vi.mock('uplot', async () => ({ default: (await import('./test/fake-uplot')).FakeUPlot }));

const broken = new Error('the forms panel broke');
vi.mock('./features/forms/forms-panel', () => ({
  FormsPanel: () => {
    throw broken;
  },
}));

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('a panel that throws while rendering', () => {
  it('shows Something went wrong under its title, logs the error, and leaves the other panels be', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', jsonFetch({ '/api/events/errors': { groups: [], records: [] }, '/api/stats/errors': { bucketMs: 3_600_000, points: [], groups: [] } }));
    document.body.innerHTML = '<main id="dashboard-root" data-frame-url="/" data-panels="errors forms" data-signed-in="true"></main>';
    const root = document.getElementById('dashboard-root')!;
    const sockets: FakeSocket[] = [];
    const reactRoot = createRoot(root);
    act(() => reactRoot.render(<App config={readConfig(root)} queryClient={testQueryClient()} transport={fakeTransport(sockets)} />));
    await settleUntil(() => root.querySelector('[role="alert"]') !== null && root.textContent!.includes('No errors recorded.'));
    expect(root.querySelectorAll('[role="alert"]')).toHaveLength(1);
    const failed = root.querySelector('[role="alert"]')!;
    expect(failed.textContent).toBe(str('interface.somethingWentWrong'));
    expect(failed.closest('section')?.querySelector('h2')?.textContent).toBe('Form submissions');
    expect([...root.querySelectorAll('h2')].map((h) => h.textContent)).toEqual(['Previewing /', 'Errors', 'Form submissions']);
    expect(logged).toHaveBeenCalledWith('Veranda: the Form submissions panel failed.', broken, expect.any(String));
    act(() => reactRoot.unmount());
    vi.unstubAllGlobals();
  });
});
