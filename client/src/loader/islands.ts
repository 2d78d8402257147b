// The island registry: block kind -> lazy import of its chunk. Only islands that exist
// are listed; an element whose kind is missing here keeps its server-rendered HTML.

/** What every island module exports. */
export interface IslandModule {
  /** Takes over `el`, the block's server-rendered element, with the block's data. */
  mount(el: HTMLElement, data: unknown): void;
}

/** Imports one island's chunk. */
export type IslandImport = () => Promise<IslandModule>;

/** Every island, by the kind written in `data-island`. */
export const islands: Readonly<Record<string, IslandImport>> = {
  'menu-tabs': () => import('../islands/menu-tabs/index.tsx'),
  form: () => import('../islands/form/index.tsx'),
  newsletter: () => import('../islands/newsletter/index.tsx'),
  // Plain-DOM widgets (no React) that enhance the server's markup.
  accordion: () => import('../widgets/accordion/index.ts'),
  marquee: () => import('../widgets/marquee/index.ts'),
  gallery: () => import('../islands/gallery/index.ts'),
};
