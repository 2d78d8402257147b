import { describe, expect, it, vi } from 'vitest';
import type { PageContext } from '../generated/types';
import { watchPreview } from '../loader/preview';
import { concernsPage, swapChanged } from './index';

function page(html: string, title = 'Page'): Document {
  const doc = document.implementation.createHTMLDocument(title);
  doc.body.innerHTML = html;
  return doc;
}

describe('the live preview', () => {
  it('reacts only to events that list the page path', () => {
    expect(concernsPage({ paths: ['/blog', '/blog/post'] }, '/blog')).toBe(true);
    expect(concernsPage({ paths: ['/about/'] }, '/about')).toBe(true);
    expect(concernsPage({ paths: ['/about'] }, '/')).toBe(false);
    expect(concernsPage({ paths: [] }, '/about')).toBe(false);
    expect(concernsPage({}, '/about')).toBe(false);
    expect(concernsPage(undefined, '/about')).toBe(false);
  });

  it('swaps the named block and leaves the other blocks in place', () => {
    const doc = page('<main id="main"><div id="block-a">old a</div><div id="block-b">old b</div></main>');
    const other = doc.getElementById('block-b');
    const fresh = page('<main id="main"><div id="block-a">new a</div><div id="block-b">new b</div></main>', 'Fresh');
    const swapped = swapChanged(doc, fresh, 'a');
    expect(swapped?.textContent).toBe('new a');
    expect(doc.getElementById('block-a')?.textContent).toBe('new a');
    expect(doc.getElementById('block-b')).toBe(other);
    expect(other?.textContent).toBe('old b');
    expect(doc.title).toBe('Fresh');
  });

  it('swaps the main content when the event names no block the page shows', () => {
    const doc = page('<main id="main"><p>old list</p></main><footer>f</footer>');
    const fresh = page('<main id="main"><p>new list</p></main><footer>changed</footer>');
    swapChanged(doc, fresh, 'missing');
    expect(doc.getElementById('main')?.textContent).toBe('new list');
    expect(doc.querySelector('footer')?.textContent).toBe('f');
    expect(swapChanged(page('<p>no main</p>'), fresh, null)).toBeNull();
  });

  it('keeps keyboard focus in the swapped content', () => {
    const doc = page('<main id="main"><div id="block-a"><button>old</button></div></main>');
    document.body.replaceChildren(...doc.body.childNodes);
    document.querySelector('button')?.focus();
    swapChanged(document, page('<main id="main"><div id="block-a"><button>new</button></div></main>'), 'a');
    expect(document.activeElement?.id).toBe('block-a');
  });
});

describe('the preview hook', () => {
  const ctx = (signedIn: boolean, roles: number[] = []) =>
    ({ authenticatedAccount: signedIn ? { id: 'x' } : null, websiteRoles: Object.fromEntries(roles.map((r) => [r, true])), pagePath: '/' }) as unknown as PageContext;

  it('loads the chunk only for signed-in accounts that are not viewers', async () => {
    const startPreview = vi.fn();
    const load = vi.fn(async () => ({ startPreview }) as never);
    watchPreview(window, ctx(false), load);
    watchPreview(window, null, load);
    watchPreview(window, ctx(true, [10]), load);
    expect(load).not.toHaveBeenCalled();
    watchPreview(window, ctx(true, [1]), load);
    await vi.waitFor(() => expect(startPreview).toHaveBeenCalledOnce());
  });
});
