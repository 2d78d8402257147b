// The video island: a play overlay over the poster, the provider's iframe on demand,
// one video playing at a time. No React. New block data sent to the block (a
// `veranda:block-data` event whose detail is the block's JSON) reloads the video when its
// mode changed.
import './video.css';
import { type VideoPlayer, mountVideo, pauseAll } from './video';

/** The event that carries a block's new data. */
export const BLOCK_DATA_EVENT = 'veranda:block-data';

let listening = false;

/** Takes over a video block's element; gives its player (`null` for an invalid embed). */
export function mount(el: HTMLElement, data: unknown): VideoPlayer | null {
  const player = mountVideo(window, el, data);
  if (player) el.addEventListener(BLOCK_DATA_EVENT, (event) => player.update((event as CustomEvent).detail));
  if (!listening) {
    listening = true;
    // A hidden page keeps no video playing.
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && pauseAll());
  }
  return player;
}
