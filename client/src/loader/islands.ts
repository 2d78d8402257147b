// The island registry: block kind -> lazy import of its chunk. Only islands that exist
// are listed; an element whose kind is missing here keeps its server-rendered HTML.
//
// The loader holds only the kind names; the imports live in one small lazy chunk
// (`island-chunks.ts`), fetched on the first island a page starts, so a new island adds a
// word to the loader, not an import.
import type { IslandKind } from './island-chunks';

/** What every island module exports. */
export interface IslandModule {
  /** Takes over `el`, the block's server-rendered element, with the block's data. */
  mount(el: HTMLElement, data: unknown): void;
}

/** Imports one island's chunk. */
export type IslandImport = () => Promise<IslandModule>;

/** Every island kind, as written in `data-island`; `island-chunks.ts` must list the same. */
const KINDS: readonly IslandKind[] = ['menu-tabs', 'form', 'newsletter', 'accordion', 'marquee', 'gallery', 'button', 'announcement-bar', 'member-area', 'scaled-text', 'restaurant-booking', 'social-sharing', 'add-to-cart', 'cart-badge', 'cart', 'video', 'quick-view', 'map', 'summary'];

/** Every island, by the kind written in `data-island`. */
export const islands: Readonly<Record<string, IslandImport>> = Object.fromEntries(
  KINDS.map((kind) => [kind, () => import('./island-chunks').then((m) => m.chunks[kind]())]),
);
