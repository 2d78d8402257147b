// Video slides (001 §3 `data-type="video"`, §4): the server's poster links to the player; a
// play control swaps in the player's iframe (none before). While a video shows on the
// current slide autoplay is switched off; when its slide leaves, the video is paused (a
// message posted to the player, as the video island does) and autoplay comes back; when
// the slide is entered again, the video plays on.
import { originOf, playerMessage, playingSrc, type PlayerAction } from '../video/embed';
import { instagramHosted, openInstagramPopup } from './click-through';
import type { PauseReason } from './motion';
import type { Slides } from './slides';

/** The console error for a video slide whose player is missing (001 §8), verbatim. */
export const VIDEO_LOADER_MISSING = 'VideoLoader not found';

/** What video slides need from autoplay. */
interface Pausable {
  pause(reason: PauseReason): void;
  resume(reason: PauseReason): void;
}

/** One video slide's player. */
interface Player {
  item: HTMLElement;
  frame: HTMLIFrameElement | null;
}

function post(frame: HTMLIFrameElement, action: PlayerAction): void {
  const origin = originOf(frame.src);
  if (frame.contentWindow && origin) frame.contentWindow.postMessage(playerMessage(frame.src, action), origin);
}

/**
 * Adds a play control to each video slide of `items`; `current(i)` says whether slide `i`
 * shows now. Returns the players (for tests).
 */
export function mountVideoSlides(items: HTMLElement[], slides: Slides, autoplay: Pausable, current: (i: number) => boolean): Player[] {
  const players: Player[] = [];
  items.forEach((item, i) => {
    if (item.dataset.type !== 'video') return;
    const template = item.querySelector<HTMLTemplateElement>('template.gallery-video-embed');
    const source = template?.content.querySelector('iframe');
    const figure = item.querySelector('figure');
    if (!source || !figure) {
      console.error(VIDEO_LOADER_MISSING);
      return;
    }
    const player: Player = { item, frame: null };
    const doc = item.ownerDocument;
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'gallery-video-play';
    button.setAttribute('aria-label', source.title ? `Play ${source.title}` : 'Play video');
    button.innerHTML = '<span aria-hidden="true">▶</span>';
    button.addEventListener('click', (event) => {
      // The play control is not a slide click (it neither moves the gallery nor follows the link).
      event.preventDefault();
      event.stopPropagation();
      if (player.frame) return;
      // An Instagram-hosted video plays in its own 620×720 window (001 §4), not in the slide.
      const win = doc.defaultView;
      if (win && instagramHosted(source.src, win.location.href)) {
        openInstagramPopup(win, source.src);
        return;
      }
      const frame = source.cloneNode(true) as HTMLIFrameElement;
      frame.src = playingSrc(source.src, false);
      frame.addEventListener('load', () => current(i) && post(frame, 'play'), { once: true });
      figure.querySelector('a')?.setAttribute('hidden', '');
      button.hidden = true;
      figure.prepend(frame);
      player.frame = frame;
      item.classList.add('gallery-video--playing');
      autoplay.pause('video');
      frame.focus();
    });
    figure.append(button);
    players.push(player);
  });
  if (players.length === 0) return players;
  slides.on((event) => {
    if (event.type !== 'change') return;
    let showing = false;
    for (const { item, frame } of players) {
      if (!frame) continue;
      const shown = current(items.indexOf(item));
      post(frame, shown ? 'play' : 'pause');
      showing ||= shown;
    }
    if (showing) autoplay.pause('video');
    else autoplay.resume('video');
  });
  return players;
}
