// The island registry: island kind -> lazy import of its chunk. An element whose kind is not
// an island keeps its server-rendered HTML.
//
// The loader holds only the kind names (`ISLAND_KINDS`, generated from the Rust enum the
// server marks islands with); the imports live in one small lazy chunk (`island-chunks.ts`,
// typed against the same kinds), fetched on the first island a page starts.
import { ISLAND_KINDS } from '../generated/types';

/** What every island module exports. */
export interface IslandModule {
  /** Takes over `el`, the block's server-rendered element, with the block's data. */
  mount(el: HTMLElement, data: unknown): void;
}

/** Imports one island's chunk. */
export type IslandImport = () => Promise<IslandModule>;

/** Every island, by the kind written in `data-island`. */
export const islands: Readonly<Record<string, IslandImport>> = Object.fromEntries(
  ISLAND_KINDS.map((kind) => [kind, () => import('./island-chunks').then((m) => m.chunks[kind]())]),
);
