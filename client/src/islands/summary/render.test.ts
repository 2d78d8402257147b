import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount } from './index';
import { UNDECODABLE_WARNING, WIDGET_RENDERING_PATH, cleanFragment, renderWidget, widgetForm } from './render';

const ID = 'a1b2c3d4e5f6a7b8c9d0e1f2';

function block(): HTMLElement {
  const section = document.createElement('section');
  section.id = `block-${ID}`;
  section.innerHTML = '<h2>Old</h2><p class="muted">Nothing to show yet.</p>';
  document.body.append(section);
  return section;
}

function answer(status: number, body: unknown): typeof fetch {
  return vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })) as unknown as typeof fetch;
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the rendering request', () => {
  it('posts widgetJSON with the id without its block- prefix, and collectionId for event summaries', () => {
    const el = block();
    const form = widgetForm(el, 'summary', { collection: 'events', collectionId: 'c0ffee', pageSize: 2 })!;
    expect(JSON.parse(form.get('widgetJSON')!)).toEqual({ type: 'summary', id: ID, value: { collection: 'events', pageSize: 2 } });
    expect(form.get('collectionId')).toBe('c0ffee');
    expect(widgetForm(el, 'summary', { collection: 'blog' })!.has('collectionId')).toBe(false);
    el.dataset.collectionId = 'feed';
    expect(widgetForm(el, 'summary', { collection: 'blog' })!.get('collectionId')).toBe('feed');
  });

  it('puts the answer into the block', async () => {
    const el = block();
    const fetcher = answer(200, { html: '<h2>From the blog</h2><ul class="items"><li>One</li></ul>' });
    expect(await renderWidget(el, 'summary', { collection: 'blog' }, fetcher)).toBe(true);
    expect(el.innerHTML).toBe('<h2>From the blog</h2><ul class="items"><li>One</li></ul>');
    const [url, init] = (fetcher as unknown as { mock: { calls: [string, RequestInit][] } }).mock.calls[0]!;
    expect(url).toBe(WIDGET_RENDERING_PATH);
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(init.body as string).get('widgetJSON')).toContain('"type":"summary"');
  });

  it.each([
    ['a 400', 400, { error: 'widgetJSON could not be decoded' }],
    ['an undecodable answer', 200, 'not json'],
    ['an answer without html', 200, { nothing: true }],
  ])('warns and leaves the block on %s', async (_name, status, body) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = block();
    const before = el.innerHTML;
    expect(await renderWidget(el, 'summary', { collection: 'blog' }, answer(status, body))).toBe(false);
    expect(el.innerHTML).toBe(before);
    expect(warn.mock.calls[0]![0]).toBe(UNDECODABLE_WARNING);
  });

  it('traces the warning as widget-undecodable', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const log = vi.fn();
    window.Veranda = { context: null, telemetry: { trace: { log, flush: () => {} } } as never };
    await renderWidget(block(), 'summary', { collection: 'blog' }, answer(400, { error: 'widgetJSON could not be decoded' }));
    delete window.Veranda;
    expect(log.mock.calls).toEqual([
      ['widget-undecodable', { message: UNDECODABLE_WARNING, error: 'widgetJSON could not be decoded' }],
    ]);
  });

  it('strips anything that could run code from the answer', () => {
    const frag = cleanFragment(
      document,
      '<p onclick="x()">a</p><script>bad()</script><a href=" javascript:alert(1)">b</a><img src="data:text/html,x" onerror="y()"><iframe src="https://e.example"></iframe><a href="/ok">c</a>',
    );
    const holder = document.createElement('div');
    holder.append(frag);
    expect(holder.innerHTML).toBe('<p>a</p><a>b</a><img><a href="/ok">c</a>');
  });
});

describe('the summary island', () => {
  it('renders on mount only when the server left the block to the browser', async () => {
    const fetcher = answer(200, { html: '<p>Fresh</p>' });
    vi.stubGlobal('fetch', fetcher);
    const still = block();
    mount(still, { collection: 'blog' });
    expect(fetcher).not.toHaveBeenCalled();

    const left = block();
    left.dataset.render = 'client';
    mount(left, { collection: 'blog' });
    await vi.waitFor(() => expect(left.innerHTML).toBe('<p>Fresh</p>'));
  });

  it('renders again when the block data changes', async () => {
    const fetcher = answer(200, { html: '<p>Changed</p>' });
    vi.stubGlobal('fetch', fetcher);
    const el = block();
    mount(el, { collection: 'blog' });
    el.dispatchEvent(new CustomEvent('veranda:block-data', { detail: { collection: 'blog', pageSize: 1 } }));
    await vi.waitFor(() => expect(el.innerHTML).toBe('<p>Changed</p>'));
    expect(el.hasAttribute('aria-busy')).toBe(false);
  });
});
