// Video embed rules (001 §3, §5, §8): the embed type of the block's html, and the
// messages that pause and play a provider's player inside its iframe.

/** The console warning for an invalid embed (001 §8), verbatim. */
export const INVALID_VIDEO_EMBED = 'Invalid video embed.';

/** Video modes (001 §5). */
export type VideoMode = 'none' | 'fit' | 'fill';

/** What embed html holds: an iframe, an object with an embed, or neither. */
export type VideoEmbedType = 'iframe' | 'object' | 'invalid';

/** Default padding ratio of a video wrapper, in percent of its width (001 §9). */
export const DEFAULT_PADDING_RATIO = 56.3;

/** The video mode named by `value`; anything else is `fit`. */
export function videoMode(value: unknown): VideoMode {
  return value === 'none' || value === 'fill' ? value : 'fit';
}

/**
 * The embed type of `html` (001 §5): an iframe or object element, at the top or nested,
 * is accepted; an object without an embed child and missing html are invalid.
 */
export function videoEmbedType(html: unknown, doc: Document = document): VideoEmbedType {
  if (typeof html !== 'string' || html.trim() === '') return 'invalid';
  const holder = doc.createElement('template');
  holder.innerHTML = html;
  const first = holder.content.querySelector('iframe, object');
  if (!first) return 'invalid';
  if (first.localName === 'iframe') return 'iframe';
  return first.querySelector('embed') ? 'object' : 'invalid';
}

/** What a player is asked to do. */
export type PlayerAction = 'pause' | 'play';

/**
 * The message that asks the player at `src` to pause or play: YouTube's command API,
 * otherwise the `{method}` form Vimeo and most other players understand.
 */
export function playerMessage(src: string, action: PlayerAction): string {
  const host = hostOf(src);
  if (/(^|\.)(youtube\.com|youtube-nocookie\.com)$/.test(host)) {
    return JSON.stringify({ event: 'command', func: action === 'pause' ? 'pauseVideo' : 'playVideo', args: [] });
  }
  return JSON.stringify({ method: action });
}

/** `src` with the query parameters players read to start at once (and muted, for autoplay). */
export function playingSrc(src: string, muted: boolean): string {
  try {
    const url = new URL(src);
    url.searchParams.set('autoplay', '1');
    if (hostOf(src).endsWith('youtube.com') || hostOf(src).endsWith('youtube-nocookie.com')) {
      url.searchParams.set('enablejsapi', '1');
    }
    if (muted) url.searchParams.set('mute', '1');
    return url.toString();
  } catch {
    return src;
  }
}

/** The origin of `src`, or `'*'`-safe nothing when it does not parse. */
export function originOf(src: string): string | null {
  try {
    return new URL(src).origin;
  } catch {
    return null;
  }
}

function hostOf(src: string): string {
  try {
    return new URL(src).hostname;
  } catch {
    return '';
  }
}
