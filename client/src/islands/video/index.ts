// The video island: a play overlay over the poster, the provider's iframe on demand,
// one video playing at a time. No React.
import './video.css';
import { mountVideo, pauseAll } from './video';

let listening = false;

/** Takes over a video block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  mountVideo(window, el, data);
  if (!listening) {
    listening = true;
    // A hidden page keeps no video playing.
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && pauseAll());
  }
}
