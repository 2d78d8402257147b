import { afterEach, describe, expect, it, vi } from 'vitest';
import { followableRedirect, submit } from './submit';
import { mockServer } from './test-support';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the redirect after a successful submission', () => {
  it('follow what the server answers: a site path or an allowed http(s) address', () => {
    expect(followableRedirect('/thanks?x=1#top')).toBe('/thanks?x=1#top');
    expect(followableRedirect('https://shop.example.com/thanks')).toBe('https://shop.example.com/thanks');
    expect(followableRedirect('http://localhost:8081/done')).toBe('http://localhost:8081/done');
  });

  it('never follow anything a browser could read as another place or a script', () => {
    for (const bad of [
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'https://shop.example.com@evil.example/',
      'https://user:pw@shop.example.com/',
      'https:\\\\shop.example.com',
      ' https://shop.example.com/',
      'https://shop.example.com/\n',
      'ftp://shop.example.com/',
      'https://',
      '',
      42,
      null,
    ]) {
      expect(followableRedirect(bad), String(bad)).toBeNull();
    }
  });

  it('take the absolute redirect from the save answer', async () => {
    mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [
        { status: 200, body: { success: true, redirectUrl: 'https://shop.example.com/thanks' } },
        { status: 200, body: { success: true, redirectUrl: 'javascript:alert(1)' } },
      ],
    });
    const submission = { formId: 'contact', blockId: 'b1', submitButtonText: 'Send', values: {} };
    expect(await submit(submission)).toEqual({ ok: true, redirectUrl: 'https://shop.example.com/thanks', postSubmitHtml: '' });
    expect(await submit(submission)).toEqual({ ok: true, redirectUrl: null, postSubmitHtml: '' });
  });
});
