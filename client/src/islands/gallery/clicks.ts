// Clicks on moving galleries (001 §4): a slideshow click goes next, previous or by the side
// clicked; a slider strip's current slide follows the active-slide click behaviour and any
// other slide becomes current. A slide's click-through link is followed instead.
import type { ClickBehavior } from './data';
import type { ActiveClick } from './thumbs';

/** Where a slideshow click goes: `side` is previous on the left half, next on the right half. */
export function slideshowClick(behavior: ClickBehavior, clickX: number, box: { left: number; width: number }): 'next' | 'previous' {
  if (behavior !== 'side') return behavior;
  return clickX < box.left + box.width / 2 ? 'previous' : 'next';
}

/**
 * What a click on strip slide `clicked` does: `go` to it when it is not current, else the
 * active-slide behaviour (`link`: the slide's own link acts, opening the lightbox or the image).
 */
export function stripClick(current: number, clicked: number, behavior: ActiveClick): { go: number } | 'next' | 'previous' | 'link' {
  if (clicked !== current) return { go: clicked };
  return behavior === 'none' ? 'link' : behavior;
}

/** Whether `target` is inside a slide with a click-through url (its link is followed, never intercepted). */
export function clickThrough(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('[data-click-through-url]') !== null;
}

/** The slideshow slides whose images are due at `index`: it and the next `preloadCount`. */
export function dueSlides(index: number, count: number, preloadCount: number): Set<number> {
  const due = new Set<number>();
  for (let i = 0; count > 0 && i <= preloadCount; i += 1) due.add((index + i) % count);
  return due;
}
