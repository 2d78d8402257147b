// Block animations (spec 001 §4, §9): every block is watched with the observer thresholds
// 0, 0.1, 0.25, 0.5 and 1, and gets `animation-loaded` once it counts as visible (half of it
// in view, or, for a block taller than twice the viewport, half the viewport filled by it).
// A block holding an image still loading waits for that load. Blocks already in view when
// the watch starts are marked at once, without motion; the rest are held back
// (`animation-pending`) until seen. Off in edit mode and under reduced motion.
import { imagesLoaded } from '../../loader/images/loaded';

/** The observer thresholds of the spec. */
export const ANIMATION_THRESHOLDS = [0, 0.1, 0.25, 0.5, 1];
/** The intersection ratio that counts as visible. */
export const VISIBLE_RATIO = 0.5;
/** The class of a block that has entered (and animated, when it was held back). */
export const LOADED_CLASS = 'animation-loaded';
/** The class of a block held back until it is seen. */
export const PENDING_CLASS = 'animation-pending';

/** Whether `entry` counts as visible. */
export function countsAsVisible(entry: IntersectionObserverEntry): boolean {
  if (!entry.isIntersecting) return false;
  if (entry.intersectionRatio >= VISIBLE_RATIO) return true;
  const viewport = entry.rootBounds?.height ?? 0;
  return viewport > 0 && entry.intersectionRect.height >= viewport * VISIBLE_RATIO;
}

/** Whether the page is shown in the configuration area's editing frame. */
export function inEditMode(win: Window): boolean {
  return win.self !== win.top;
}

/**
 * Watches `blocks` and marks each `animation-loaded` once seen; gives a function that stops
 * watching. Does nothing (every block stays as the server rendered it) in edit mode, under
 * reduced motion or without IntersectionObserver.
 */
export function animateBlocks(win: Window & typeof globalThis, blocks: readonly HTMLElement[]): () => void {
  const reduced = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  if (inEditMode(win) || reduced || typeof win.IntersectionObserver !== 'function') return () => {};
  const first = new Set<Element>(blocks);
  const observer = new win.IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const el = entry.target as HTMLElement;
        const initial = first.delete(el);
        if (!countsAsVisible(entry)) {
          if (initial) el.classList.add(PENDING_CLASS);
          continue;
        }
        observer.unobserve(el);
        if (initial) {
          el.classList.add(LOADED_CLASS);
          continue;
        }
        // A block without images ('No images') enters at once.
        void imagesLoaded(el)
          .catch(() => undefined)
          .then(() => {
            el.classList.add(LOADED_CLASS);
            el.classList.remove(PENDING_CLASS);
          });
      }
    },
    { threshold: ANIMATION_THRESHOLDS },
  );
  blocks.forEach((el) => observer.observe(el));
  return () => observer.disconnect();
}
