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

describe('the save call', () => {
  afterEach(() => {
    document.getElementById('page-context')?.remove();
    document.cookie = 'SS_SESSION_ID=; max-age=0; path=/';
    vi.useRealTimers();
  });

  it('carries the analytics event fields: the tracker’s common fields for a form submission (000 §3)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_760_000_000_000);
    const context = document.createElement('script');
    context.id = 'page-context';
    context.type = 'application/json';
    context.textContent = JSON.stringify({ website: { id: '0123456789abcdef01234567' } });
    document.head.append(context);
    document.cookie = 'SS_SESSION_ID=s-42; path=/';
    const seen = mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 200, body: { success: true } }],
    });
    await submit({ formId: 'contact', blockId: 'b1', submitButtonText: 'Send', values: { visit: { Coffee: ['2'] } } });
    const save = seen.find((s) => s.path === '/api/form/SaveFormSubmission')!;
    expect(save.body).toMatchObject({
      actor: 'visitor',
      action: 'submit',
      objectType: 'form',
      objectId: 'contact',
      websiteId: '0123456789abcdef01234567',
      sessionId: 's-42',
      clientTimestamp: 1_760_000_000_000,
    });
    expect(JSON.parse(save.body!.form as string)).toEqual({ visit: { Coffee: ['2'] } });
  });

  it('leaves the session out when the telemetry keeps none', async () => {
    const seen = mockServer({
      '/api/form/FormSubmissionKey': [{ status: 200, body: { key: 'k' } }],
      '/api/form/SaveFormSubmission': [{ status: 200, body: { success: true } }],
    });
    await submit({ formId: 'contact', blockId: 'b1', submitButtonText: 'Send', values: {} });
    const save = seen.find((s) => s.path === '/api/form/SaveFormSubmission')!;
    expect(save.body).not.toHaveProperty('sessionId');
    expect(save.body).not.toHaveProperty('websiteId');
    expect(save.body).toMatchObject({ objectType: 'form', objectId: 'contact' });
  });
});
