// The imports behind the island registry (`islands.ts`): a lazy chunk of its own, so the
// loader carries one import for all islands. A kind added here must be added to `KINDS`
// in `islands.ts` too (the type check of both lists keeps them in step).
import type { IslandImport } from './islands';

/** Every island's chunk, by kind. */
export const chunks = {
  'menu-tabs': () => import('../islands/menu-tabs/index.tsx'),
  form: () => import('../islands/form/index.tsx'),
  newsletter: () => import('../islands/newsletter/index.tsx'),
  // Plain-DOM widgets (no React) that enhance the server's markup.
  accordion: () => import('../widgets/accordion/index.ts'),
  marquee: () => import('../widgets/marquee/index.ts'),
  gallery: () => import('../islands/gallery/index.ts'),
  button: () => import('../widgets/button/index.ts'),
  'announcement-bar': () => import('../widgets/announcement-bar/index.ts'),
  'member-area': () => import('../widgets/pricing-toggle/index.ts'),
  'scaled-text': () => import('../widgets/scaled-text/index.ts'),
  'restaurant-booking': () => import('../widgets/restaurant-booking/index.ts'),
  'social-sharing': () => import('../widgets/social-follow/index.ts'),
  // Commerce: add to cart, the cart badge and the cart block (spec 000 §2, §4).
  'add-to-cart': () => import('../commerce/add-to-cart.ts'),
  'cart-badge': () => import('../commerce/cart-badge.ts'),
  cart: () => import('../commerce/cart-page.ts'),
  'quick-view': () => import('../commerce/quick-view.ts'),
  video: () => import('../islands/video/index.ts'),
  map: () => import('../islands/map/index.ts'),
  summary: () => import('../islands/widget-rendering/index.ts'),
} satisfies Record<string, IslandImport>;

/** The kinds that have an island. */
export type IslandKind = keyof typeof chunks;
