// The imports behind the island registry (`islands.ts`): a lazy chunk of its own, so the
// loader carries one import for all islands. The table is typed against `IslandKind`, which
// is generated from the Rust enum the server marks islands with: a kind without a chunk here
// fails the type check. Each island lives in `islands/<kind>/`.
import type { IslandKind } from '../generated/types';
import { loadChunk } from './chunks';
import type { IslandImport, IslandModule } from './islands';

/** Every island's chunk, by kind. */
export const chunks = {
  video: () => import('../islands/video/index.ts'),
  map: () => import('../islands/map/index.ts'),
  form: () => import('../islands/form/index.tsx'),
  newsletter: () => import('../islands/newsletter/index.tsx'),
  // Plain-DOM islands (no React) that enhance the server's markup.
  accordion: () => import('../islands/accordion/index.ts'),
  marquee: () => import('../islands/marquee/index.ts'),
  'scaled-text': () => import('../islands/scaled-text/index.ts'),
  button: () => import('../islands/button/index.ts'),
  'member-area': () => import('../islands/member-area/index.ts'),
  summary: () => import('../islands/summary/index.ts'),
  search: () => import('../islands/search/index.ts'),
  gallery: () => import('../islands/gallery/index.ts'),
  'restaurant-booking': () => import('../islands/restaurant-booking/index.ts'),
  'menu-tabs': () => import('../islands/menu-tabs/index.tsx'),
  'social-sharing': () => import('../islands/social-sharing/index.ts'),
  // Commerce: the cart block, the cart badge, quick view and add to cart (spec 000 §2, §4).
  cart: () => import('../islands/cart/cart-page.ts'),
  'announcement-bar': () => import('../islands/announcement-bar/index.ts'),
  'cart-badge': () => import('../islands/cart-badge/cart-badge.ts'),
  'quick-view': () => import('../islands/quick-view/quick-view.ts'),
  'add-to-cart': () => import('../islands/add-to-cart/add-to-cart.ts'),
} satisfies Record<IslandKind, IslandImport>;

/** Loads island `kind`'s chunk: 120 s per attempt, one retry, then 'Loading chunk failed' explained. */
export function load(kind: IslandKind): Promise<IslandModule> {
  return loadChunk(kind, chunks[kind]);
}
