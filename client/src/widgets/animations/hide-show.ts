// Hiding and showing with an animation (spec 000 §4 "Animations: hide and show with fade,
// scale or collapse"; §9 "Animation default 0.3 s", "scale-hide goes to 0.94"). The element
// ends `hidden` (or not) either way; the motion is the Web Animations API's, skipped under
// reduced motion, with `?nomotion=true`, or where the browser has no `animate`.

/** How an element leaves or enters. */
export type HideShowAnimation = 'fade' | 'scale' | 'collapse';

/** The default duration, seconds. */
export const HIDE_SHOW_SECONDS = 0.3;
/** The scale a `scale` hide shrinks to (and a `scale` show grows from). */
export const SCALE_HIDE = 0.94;

/** Whether the page asks for no motion: reduced motion, or `?nomotion=true`. */
export function motionOff(win: Window): boolean {
  const reduced = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  return reduced || new URLSearchParams(win.location.search).get('nomotion') === 'true';
}

/** The keyframes of `kind` from shown to hidden. */
function leaving(kind: HideShowAnimation, el: HTMLElement): Keyframe[] {
  switch (kind) {
    case 'fade':
      return [{ opacity: 1 }, { opacity: 0 }];
    case 'scale':
      return [
        { opacity: 1, transform: 'scale(1)' },
        { opacity: 0, transform: `scale(${SCALE_HIDE})` },
      ];
    case 'collapse':
      return [
        { height: `${el.scrollHeight}px`, overflow: 'hidden' },
        { height: '0px', overflow: 'hidden' },
      ];
  }
}

/** The hide or show each element is in the middle of: a newer one cancels it. */
const running = new WeakMap<HTMLElement, Animation>();

/** Plays `frames` on `el` (cancelling what it was playing), or gives `null` when motion is off. */
function play(el: HTMLElement, frames: Keyframe[], seconds: number): Promise<boolean> | null {
  running.get(el)?.cancel();
  running.delete(el);
  const win = el.ownerDocument.defaultView;
  if (!win || motionOff(win) || typeof el.animate !== 'function') return null;
  const animation = el.animate(frames, { duration: seconds * 1000, easing: 'ease-out' });
  running.set(el, animation);
  // `true` once it played to the end; `false` when a newer hide or show cancelled it.
  return animation.finished.then(
    () => {
      if (running.get(el) !== animation) return false;
      running.delete(el);
      return true;
    },
    () => false,
  );
}

/**
 * Hides `el` with `kind`; resolves once it is `hidden` (at once, synchronously, without
 * motion). An element already hidden stays so.
 */
export function hide(el: HTMLElement, kind: HideShowAnimation, seconds = HIDE_SHOW_SECONDS): Promise<void> {
  if (el.hidden) return Promise.resolve();
  const playing = play(el, leaving(kind, el), seconds);
  if (!playing) {
    el.hidden = true;
    return Promise.resolve();
  }
  return playing.then((ended) => {
    if (ended) el.hidden = true;
  });
}

/** Shows `el` with `kind` (the hide played backwards): it is shown at once and resolves once it has entered. */
export function show(el: HTMLElement, kind: HideShowAnimation, seconds = HIDE_SHOW_SECONDS): Promise<void> {
  // A hide still playing is called off: the element stays.
  if (!el.hidden && !running.has(el)) return Promise.resolve();
  el.hidden = false;
  return (play(el, leaving(kind, el).reverse(), seconds) ?? Promise.resolve(false)).then(() => undefined);
}
