// Block animations' chunk, imported by the loader only on pages of a site that animates
// its blocks (`data-block-animation` on the body).
import './animations.css';
import { animateBlocks } from './animations';

/** Animates the blocks of `win`'s page, with the duration the body names. */
export function start(win: Window): void {
  const body = win.document.body;
  const seconds = Number(body.dataset.blockAnimationDuration);
  if (Number.isFinite(seconds) && seconds > 0) body.style.setProperty('--block-animation-duration', `${seconds}s`);
  animateBlocks(win as Window & typeof globalThis, [...win.document.querySelectorAll<HTMLElement>('main .block')]);
}
