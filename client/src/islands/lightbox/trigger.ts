// The loader's lightbox hook: a click on an `a[data-lightbox]` inside a
// `[data-lightbox-set]` opens the lightbox, whose chunk is fetched only then. A page
// whose address names an item (`#lightbox=N`) opens it at once.

/** Watches `win`'s page for lightbox clicks and an item named in the address. */
export function watchLightbox(win: Window): void {
  const doc = win.document;
  const open = (set: Element, link?: Element) => {
    const links = Array.from(set.querySelectorAll<HTMLAnchorElement>('a[data-lightbox]'));
    const hash = /^#lightbox=(\d+)$/.exec(win.location.hash);
    const index = link ? links.indexOf(link as HTMLAnchorElement) : Number(hash?.[1] ?? 1) - 1;
    if (index < 0 || index >= links.length) return;
    import('./lightbox')
      .then((lightbox) => lightbox.openFromLinks(win, set, links, index))
      .catch((error: unknown) => console.error('Veranda: the lightbox could not open.', error));
  };
  doc.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    const link = (event.target as Element | null)?.closest?.('a[data-lightbox]');
    const set = link?.closest('[data-lightbox-set]');
    if (!link || !set) return;
    event.preventDefault();
    open(set, link);
  });
  const first = doc.querySelector('[data-lightbox-set]');
  if (first && /^#lightbox=\d+$/.test(win.location.hash)) open(first);
}
