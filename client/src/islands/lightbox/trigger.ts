// The loader's lightbox hook: a click on an `a[data-lightbox]` inside a
// `[data-lightbox-set]` opens the lightbox, whose chunk is fetched only then. A page
// whose address names a set and an item (`#lightbox=S-N`, set S of the page, item N; the
// older `#lightbox=N` is item N of the first set) opens it at once, and so does a path
// suffix naming a slide (001 §2): gallery history's deep link (`/gallery-designs/sunset`),
// which the server draws with that slide current, opens the lightbox on it when the gallery
// is one that does not move (a slideshow, slider or carousel shows the slide itself).

/** Watches `win`'s page for lightbox clicks and an item named in the address. */
export function watchLightbox(win: Window): void {
  const doc = win.document;
  const open = (set: Element, link: Element | number) => {
    const links = Array.from(set.querySelectorAll<HTMLAnchorElement>('a[data-lightbox]'));
    const index = typeof link === 'number' ? link : links.indexOf(link as HTMLAnchorElement);
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
  const named = /^#lightbox=(?:(\d+)-)?(\d+)$/.exec(win.location.hash);
  const set = named && doc.querySelectorAll('[data-lightbox-set]')[Number(named[1] ?? 1) - 1];
  if (set) open(set, Number(named[2]) - 1);
  else if (!named) {
    const linked = doc.querySelector('[data-lightbox-set][data-linked-slide]:not(.gallery--slideshow, .gallery--slider, .gallery--carousel)');
    const link = linked?.querySelector(':scope > .is-current a[data-lightbox]');
    if (linked && link) open(linked, link);
  }
}
