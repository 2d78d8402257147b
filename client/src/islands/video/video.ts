// One video block (001 §4 "Video"): a play overlay over the poster; clicking it, or Enter
// or Space on it, swaps in the provider's iframe (or object) and moves focus there. Showing one video
// returns the others to their overlay. Players are paused and played by posted messages.
// Changing mode reloads the video: its player is taken down and built again in the new
// mode's box, back to how it was mounted (behind its overlay, or in place unstarted).
import {
  DEFAULT_PADDING_RATIO,
  INVALID_VIDEO_EMBED,
  type PlayerAction,
  type VideoMode,
  originOf,
  playerMessage,
  playingSrc,
  videoEmbedType,
  videoMode,
} from './embed';
import { CUSTOM_FEATURED_IMAGES, VIMEO_PLAYER_ORIGIN, watchVimeoRefusal } from './owner-messages';

/** The block data the island reads (001 §3 "Video embed"). */
export interface VideoData {
  /** Embed html, already sanitised by the server. */
  html: unknown;
  /** The video's title (names the play control). */
  title: string;
  /** none, fit or fill. */
  mode: VideoMode;
  /** Whether a play overlay covers the poster until clicked. */
  overlay: boolean;
  /** Whether the video starts on its own (when motion is allowed). */
  autoplay: boolean;
  /** Whether the block names a featured image (`thumbnail`) to show over the player. */
  featuredImage: boolean;
}

/** Reads a video block's data; missing fields take their defaults. */
export function parseVideoData(data: unknown): VideoData {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  return {
    html: d.html,
    title: typeof d.title === 'string' ? d.title : '',
    mode: videoMode(d.mode),
    overlay: d.overlay !== false,
    autoplay: d.autoplay === true,
    featuredImage: typeof d.thumbnail === 'string' && d.thumbnail.trim() !== '',
  };
}

/** Whether the page may start things moving: not under `nomotion=true`, not under reduced motion. */
export function motionAllowed(win: Window): boolean {
  if (new URLSearchParams(win.location.search).get('nomotion') === 'true') return false;
  return !win.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
}

/** Every mounted player; at most one shows its video at a time. */
const players = new Set<VideoPlayer>();

/** Pauses every video that is showing (by a posted message to its player). */
export function pauseAll(): void {
  players.forEach((p) => p.post('pause'));
}

/** The wrapper's padding ratio (percent) and the iframe's box inside it for `mode`. */
export function frameBox(
  mode: VideoMode,
  width: number | null,
  height: number | null,
): { padding: number | null; width: number; height: number } {
  const ratio = width && height ? (height / width) * 100 : DEFAULT_PADDING_RATIO;
  if (mode === 'none') return { padding: null, width: 100, height: 100 };
  if (mode === 'fit') return { padding: ratio, width: 100, height: 100 };
  // fill: the wrapper keeps the default ratio and the video covers it, cropped evenly.
  return ratio < DEFAULT_PADDING_RATIO
    ? { padding: DEFAULT_PADDING_RATIO, width: (DEFAULT_PADDING_RATIO / ratio) * 100, height: 100 }
    : { padding: DEFAULT_PADDING_RATIO, width: 100, height: (ratio / DEFAULT_PADDING_RATIO) * 100 };
}

/** A video block's player: its wrapper, overlay and (once shown) iframe. */
export class VideoPlayer {
  /** The box that holds the poster, the overlay and the iframe. */
  readonly wrapper: HTMLElement;
  private readonly button: HTMLButtonElement | null;
  private frame: PlayerElement | null = null;
  /** Stops listening to the shown player's answers (a Vimeo player's refusal). */
  private unwatch: (() => void) | null = null;

  constructor(
    figure: HTMLElement,
    private readonly source: PlayerElement,
    private data: VideoData,
  ) {
    const doc = figure.ownerDocument;
    this.wrapper = doc.createElement('div');
    this.layOut();
    const poster = figure.querySelector('img.video-poster');
    if (poster) this.wrapper.append(poster);
    this.button = null;
    if (data.overlay) {
      const button = doc.createElement('button');
      button.type = 'button';
      button.className = 'video-play';
      button.setAttribute('aria-label', data.title ? `Play ${data.title}` : 'Play video');
      button.innerHTML = '<span class="video-play-icon" aria-hidden="true"></span>';
      button.addEventListener('click', () => this.show({ focus: true, muted: false }));
      button.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          this.show({ focus: true, muted: false });
        }
      });
      this.wrapper.append(button);
      this.button = button;
    }
    figure.prepend(this.wrapper);
    figure.classList.add('video--ready');
    players.add(this);
  }

  /** Sizes the wrapper for the current mode. */
  private layOut(): void {
    this.wrapper.className = `video-wrapper video-wrapper--${this.data.mode}`;
    const box = frameBox(this.data.mode, numberAttr(this.source, 'width'), numberAttr(this.source, 'height'));
    this.wrapper.style.paddingBottom = box.padding === null ? '' : `${box.padding}%`;
  }

  /** The current mode. */
  get mode(): VideoMode {
    return this.data.mode;
  }

  /**
   * Takes new block data (001 §4 "Changing mode reloads the video"): a different mode takes
   * the player down and builds it again in the new mode's box, behind its overlay or (without
   * one) in place unstarted; says whether it reloaded. The same mode changes nothing.
   */
  update(raw: unknown): boolean {
    const mode = parseVideoData(raw).mode;
    if (mode === this.data.mode) return false;
    this.post('pause');
    this.removeFrame();
    this.data = { ...this.data, mode };
    this.layOut();
    if (this.button) this.button.hidden = false;
    else this.show({ focus: false, muted: false, start: false });
    return true;
  }

  /** Whether the provider's iframe is in place. */
  get showing(): boolean {
    return this.frame !== null;
  }

  /**
   * Swaps the overlay for the provider's iframe (started when `start`), returns the other
   * players to their overlay, and moves focus into the video when asked.
   */
  show({ focus, muted, start = true }: { focus: boolean; muted: boolean; start?: boolean }): void {
    // Only a video that starts stops the others; one put in place unstarted leaves them be.
    if (start) players.forEach((p) => p !== this && p.reset());
    if (this.frame) {
      if (focus) this.frame.focus();
      return;
    }
    const frame = this.source.cloneNode(true) as PlayerElement;
    const box = frameBox(this.data.mode, numberAttr(this.source, 'width'), numberAttr(this.source, 'height'));
    if (this.data.mode !== 'none') {
      frame.style.width = `${box.width}%`;
      frame.style.height = `${box.height}%`;
      frame.style.left = `${(100 - box.width) / 2}%`;
      frame.style.top = `${(100 - box.height) / 2}%`;
    }
    setAddress(frame, start ? playingSrc(addressOf(this.source), muted) : addressOf(this.source));
    // An object is not focusable by default; the video takes focus when shown.
    if (frame.localName === 'object') frame.tabIndex = -1;
    if (start) frame.addEventListener('load', () => this.post('play'), { once: true });
    const win = this.wrapper.ownerDocument.defaultView;
    if (win && originOf(addressOf(frame)) === VIMEO_PLAYER_ORIGIN) this.unwatch = watchVimeoRefusal(win, frame);
    this.frame = frame;
    this.wrapper.classList.add('video-wrapper--showing');
    this.wrapper.append(frame);
    if (this.button) this.button.hidden = true;
    if (focus) frame.focus();
  }

  /**
   * Pauses the video and, when it has an overlay, removes its iframe and brings the overlay
   * back; a video without an overlay keeps its (paused) player in place.
   */
  reset(): void {
    if (!this.frame) return;
    this.post('pause');
    if (!this.button) return;
    this.removeFrame();
    this.wrapper.classList.remove('video-wrapper--showing');
    this.button.hidden = false;
  }

  /** Takes the provider's player out (and stops listening to it). */
  private removeFrame(): void {
    this.unwatch?.();
    this.unwatch = null;
    this.frame?.remove();
    this.frame = null;
  }

  /** Asks the player to pause or play, by a message posted to its window. */
  post(action: PlayerAction): void {
    const target = this.frame?.contentWindow;
    const address = this.frame ? addressOf(this.frame) : '';
    const origin = originOf(address);
    if (target && origin) target.postMessage(playerMessage(address, action), origin);
  }

  /** Forgets this player (when its block leaves the page). */
  destroy(): void {
    this.unwatch?.();
    this.unwatch = null;
    players.delete(this);
  }
}

/**
 * Takes over a video block's `figure.video`: an invalid embed logs the spec's warning, shows
 * it as the block's error state and keeps the server's link; otherwise the player is built, and started when the block
 * autoplays and motion is allowed.
 */
export function mountVideo(win: Window, el: HTMLElement, raw: unknown): VideoPlayer | null {
  const data = parseVideoData(raw);
  const figure = el.querySelector<HTMLElement>('figure.video');
  if (!figure) return null;
  if (videoEmbedType(data.html, el.ownerDocument) === 'invalid') {
    console.warn(INVALID_VIDEO_EMBED);
    // The featured image cannot cover a player there is none of (001 §8; owner-facing).
    if (data.featuredImage) console.warn(CUSTOM_FEATURED_IMAGES);
    figure.classList.add('video--invalid');
    if (!figure.querySelector('.video-error')) {
      const error = el.ownerDocument.createElement('p');
      error.className = 'video-error';
      error.textContent = INVALID_VIDEO_EMBED;
      figure.prepend(error);
    }
    return null;
  }
  const template = figure.querySelector<HTMLTemplateElement>('template.video-embed');
  const source = template?.content.querySelector<PlayerElement>('iframe, object');
  if (!source) return null;
  const player = new VideoPlayer(figure, source, data);
  const autoplay = data.autoplay && motionAllowed(win);
  if (autoplay || !data.overlay) player.show({ focus: false, muted: autoplay, start: autoplay });
  return player;
}

/** The provider's player: an iframe, or an object with an embed (001 §5). */
export type PlayerElement = HTMLIFrameElement | HTMLObjectElement;

/** The address a player loads: an iframe's `src`, an object's `data` (else its embed's `src`). */
export function addressOf(el: PlayerElement): string {
  if (el.localName === 'iframe') return el.getAttribute('src') ?? '';
  return el.getAttribute('data') ?? el.querySelector('embed')?.getAttribute('src') ?? '';
}

/** Points a player at `address` (an object and its embed both). */
function setAddress(el: PlayerElement, address: string): void {
  if (el.localName === 'iframe') {
    el.setAttribute('src', address);
    return;
  }
  el.setAttribute('data', address);
  el.querySelector('embed')?.setAttribute('src', address);
}

function numberAttr(el: Element, name: string): number | null {
  const value = Number.parseInt(el.getAttribute(name) ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : null;
}
