// The search preview's results (000 §9 "search preview" chunk): the site search page the
// server already serves, `/search?q=…`, read for its result list. The page is the one a
// visitor gets without script, so the preview shows the same hits in the same order.

/** One result of the preview. */
export interface PreviewHit {
  title: string;
  url: string;
  excerpt: string;
}

/** The preview shows at most this many results; the search page has them all. */
export const PREVIEW_LIMIT = 5;

/** The search page's address for `query`, limited to `collection` when given. */
export function searchUrl(query: string, collection?: string | null): string {
  const params = new URLSearchParams({ q: query.trim() });
  if (collection) params.set('collection', collection);
  return `/search?${params.toString()}`;
}

/** The hits of a search page's HTML (its `ol.search-results`), at most [`PREVIEW_LIMIT`]. */
export function hitsOf(html: string, base: string): PreviewHit[] {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return Array.from(doc.querySelectorAll('ol.search-results > li'))
    .flatMap((li) => {
      const link = li.querySelector('a[href]');
      const href = link?.getAttribute('href');
      if (!link || !href) return [];
      // Only the site's own pages: a hit's address is a path on this site.
      const url = new URL(href, base);
      if (url.origin !== new URL(base).origin) return [];
      return [{ title: link.textContent?.trim() ?? '', url: url.pathname + url.search, excerpt: li.querySelector('p')?.textContent?.trim() ?? '' }];
    })
    .slice(0, PREVIEW_LIMIT);
}

/** Fetches the hits for `query`; rejects when the page cannot be had. */
export async function fetchHits(query: string, collection: string | null, signal: AbortSignal, base: string): Promise<PreviewHit[]> {
  const response = await fetch(new URL(searchUrl(query, collection), base).toString(), {
    signal,
    credentials: 'same-origin',
    headers: { Accept: 'text/html' },
  });
  if (!response.ok) throw new Error(`search answered ${response.status}`);
  return hitsOf(await response.text(), base);
}
