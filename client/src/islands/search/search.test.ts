import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from './index';
import { hitsOf, searchUrl } from './preview';

/** The search page as the server draws it (`server/src/render/bodies.rs::search_body`). */
const page = (hits: Array<[string, string, string]>) => `<!doctype html><main><h1>Search</h1>
  <ol class="search-results">${hits.map(([title, url, excerpt]) => `<li><a href="${url}">${title}</a>${excerpt ? `<p>${excerpt}</p>` : ''}</li>`).join('')}</ol></main>`;

const SERVER_FORM = `<form role="search" method="get" action="/search"><label for="search-1">Search this site</label>
  <input id="search-1" type="search" name="q" placeholder="Find…" maxlength="200"> <button type="submit">Search</button></form>`;

function block(data: unknown): HTMLElement {
  const el = document.createElement('section');
  el.innerHTML = SERVER_FORM;
  document.body.append(el);
  mount(el, data);
  return el;
}

const typeInto = (input: HTMLInputElement, value: string) => {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
};

/** Lets the mocked fetch and its `.then`s settle under fake timers. */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

let requests: string[] = [];
let answer: () => Response;

beforeEach(() => {
  vi.useFakeTimers();
  requests = [];
  answer = () => new Response(page([]), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      requests.push(url);
      return answer();
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('the search preview (000 §9 search preview chunk)', () => {
  it('reads the hits of the search page, at most five, only the site’s own', () => {
    const html = page([
      ['First post', '/blog/first-post', 'Hello porch.'],
      ['Elsewhere', 'https://example.org/x', ''],
      ...Array.from({ length: 6 }, (_, i): [string, string, string] => [`Page ${i}`, `/p${i}`, '']),
    ]);
    const hits = hitsOf(html, 'http://localhost/');
    expect(hits).toHaveLength(5);
    expect(hits[0]).toEqual({ title: 'First post', url: '/blog/first-post', excerpt: 'Hello porch.' });
    expect(hits.map((h) => h.url)).not.toContain('https://example.org/x');
    expect(searchUrl(' porch ', 'blog')).toBe('/search?q=porch&collection=blog');
  });

  it('lists results 300 ms after the last keystroke, with a polite count', async () => {
    answer = () => new Response(page([['First post', '/blog/first-post', 'Hello porch.'], ['Menu', '/menu', '']]), { status: 200 });
    const el = block({ placeholder: 'Find…', preview: true });
    const input = el.querySelector<HTMLInputElement>('input[name="q"]')!;
    typeInto(input, 'po');
    vi.advanceTimersByTime(200);
    typeInto(input, 'porch');
    vi.advanceTimersByTime(299);
    expect(requests).toHaveLength(0);
    vi.advanceTimersByTime(1);
    await settle();
    expect(requests).toHaveLength(1);
    expect(new URL(requests[0]!).search).toBe('?q=porch');
    const preview = document.getElementById(input.getAttribute('aria-controls')!)!;
    expect(preview.hidden).toBe(false);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect([input.getAttribute('role'), input.getAttribute('aria-autocomplete')]).toEqual(['combobox', 'list']);
    expect(preview.querySelector('[role="status"]')!.textContent).toBe('2 results');
    expect(Array.from(preview.querySelectorAll('a'), (a) => a.getAttribute('href'))).toEqual(['/blog/first-post', '/menu']);

    // ArrowDown enters the list, Escape closes it and goes back to the field.
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(document.activeElement).toBe(preview.querySelector('a'));
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
    expect(document.activeElement?.getAttribute('href')).toBe('/menu');
    document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(preview.hidden).toBe(true);
    expect(document.activeElement).toBe(input);
  });

  it('says when nothing matched, and the spec words when the results cannot be had', async () => {
    const el = block({ preview: true });
    const input = el.querySelector<HTMLInputElement>('input[name="q"]')!;
    typeInto(input, 'zzz');
    vi.advanceTimersByTime(300);
    await settle();
    const status = el.querySelector('[role="status"]')!;
    expect(status.textContent).toBe('No results for "zzz"');
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    answer = () => new Response('busy', { status: 503 });
    typeInto(input, 'porch');
    vi.advanceTimersByTime(300);
    await settle();
    expect(status.textContent).toBe('Unable to load results');
  });

  it('limits the preview and the search page to the block’s collection', async () => {
    const el = block({ preview: true, collection: 'blog' });
    const hidden = el.querySelector<HTMLInputElement>('form input[name="collection"]')!;
    expect([hidden.type, hidden.value]).toEqual(['hidden', 'blog']);
    typeInto(el.querySelector<HTMLInputElement>('input[name="q"]')!, 'porch');
    vi.advanceTimersByTime(300);
    await settle();
    expect(new URL(requests[0]!).search).toBe('?q=porch&collection=blog');
  });

  it('leaves a block without preview as the plain form', () => {
    const el = block({ placeholder: 'Find…' });
    vi.advanceTimersByTime(1000);
    typeInto(el.querySelector<HTMLInputElement>('input[name="q"]')!, 'porch');
    vi.advanceTimersByTime(1000);
    expect(requests).toHaveLength(0);
    expect(el.querySelector('.search-preview')).toBeNull();
  });
});
