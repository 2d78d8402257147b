// The fonts the site names (spec 000 §7 "a font-stylesheet service by family names"): the
// server links their stylesheets as preloads (`data-font-stylesheet`), fetched early without
// holding up the page or its scripts; the loader makes them stylesheets. A site naming no
// fonts has no such link, and nothing is fetched.

/** Applies the font stylesheets the server preloaded. */
export function applyFontStylesheets(doc: Document): void {
  doc.querySelectorAll<HTMLLinkElement>('link[data-font-stylesheet]').forEach((link) => (link.rel = 'stylesheet'));
}
