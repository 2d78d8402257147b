import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { flakyFetch, jsonFetch, loadError, loadErrors, renderWithClient, retryOnceOnline, settle, settleUntil } from '../../test/render';
import { FormsPanel } from './forms-panel';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the form submissions panel', () => {
  it('lists every form with its submission count and its CSV export link', async () => {
    const now = Date.now();
    vi.stubGlobal(
      'fetch',
      jsonFetch({
        '/api/form/forms': { forms: [{ formId: 'contact', title: 'Book the porch', kind: 'form' }, { formId: 'newsletter', title: '', kind: 'newsletter' }] },
        '/api/form/submissions?formId=contact': { formId: 'contact', submissions: [{ submittedAt: now - 10_000 }, { submittedAt: now - 600_000 }] },
        '/api/form/submissions?formId=newsletter': { formId: 'newsletter', submissions: [] },
      }),
    );
    const { container } = renderWithClient(<FormsPanel />);
    await settle();
    const items = [...container.querySelectorAll('li')];
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Book the porch');
    expect(items[0]!.textContent).toContain('Submissions2');
    expect(items[0]!.querySelector('time')?.textContent).toBe('about 10 seconds ago');
    const link = items[0]!.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/api/form/submissions?formId=contact&format=csv');
    expect(link.textContent).toBe('Export Book the porch as CSV');
    expect(items[1]!.textContent).toContain('none yet');
    expect(items[1]!.querySelector('a')?.getAttribute('href')).toBe('/api/form/submissions?formId=newsletter&format=csv');
  });

  it('says Unable to load. Try again. with the server’s reason when the forms are refused', async () => {
    vi.stubGlobal('fetch', jsonFetch({}));
    const { container } = renderWithClient(<FormsPanel />);
    await settle();
    loadError(container, 'Not here.');
  });

  it('says Network error when the forms cannot be asked for, and lists them on Try again', async () => {
    const net = flakyFetch({ '/api/form/forms': { forms: [{ formId: 'contact', title: 'Contact', kind: 'form' }] } });
    vi.stubGlobal('fetch', net.fetch);
    const { container } = renderWithClient(<FormsPanel />);
    await retryOnceOnline(container, net);
    await settleUntil(() => container.querySelector('li') !== null);
    expect(container.querySelector('li')?.textContent).toContain('Contact');
  });

  it('says Unable to load. Try again. in a form’s row when its submissions cannot be read, and reads them on Try again', async () => {
    const answers: Record<string, unknown> = { '/api/form/forms': { forms: [{ formId: 'contact', title: 'Contact', kind: 'form' }] } };
    vi.stubGlobal('fetch', jsonFetch(answers));
    const { container } = renderWithClient(<FormsPanel />);
    await settleUntil(() => loadErrors(container).length > 0);
    const retry = loadError(container.querySelector('li')!, 'Not here.');
    answers['/api/form/submissions?formId=contact'] = { formId: 'contact', submissions: [{ submittedAt: Date.now() }] };
    act(() => retry.click());
    await settleUntil(() => container.querySelector('li')?.textContent?.includes('Submissions1') ?? false);
    expect(loadErrors(container)).toEqual([]);
  });
});
