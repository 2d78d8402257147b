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

/** The registry chunk, its load tried twice. */
const registry = () => import('./island-chunks').catch(() => import('./island-chunks'));

/**
 * Every island, by the kind written in `data-island`. Each island's own chunk loads through
 * `chunks.ts` (120 s timeout, one retry, the failure explained), from the registry chunk.
 */
export const islands: Readonly<Record<string, IslandImport>> = Object.fromEntries(
  ISLAND_KINDS.map((kind) => [kind, () => registry().then((m) => m.load(kind))]),
);
