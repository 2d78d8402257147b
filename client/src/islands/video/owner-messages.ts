// The video messages of 001 §8 meant for the site's owner, not its visitors: both go to the
// console (as 'Invalid video embed.' does) and the visitor sees the block as it is.
//
// - 'Custom featured images …': a video block with a featured image (`thumbnail`) whose
//   `html` is not an embed (missing, or neither an iframe nor an object with an embed). Only
//   an embedded player can sit behind a featured image and its play overlay.
// - 'Vimeo Basic accounts …': a Vimeo player that refuses to play here. Veranda asks Vimeo
//   nothing about the account; the sign it gets is the player's own answer to the island's
//   `play` message, an `error` event named `PrivacyError` (the video may not be embedded on
//   this site, which a Basic account cannot allow).

/** 001 §8, verbatim. */
export const CUSTOM_FEATURED_IMAGES =
  'Custom featured images only available with embedded videos. Go back into embed settings to turn off featured images.';
/** 001 §8, verbatim. */
export const VIMEO_BASIC_UNSUPPORTED = 'Vimeo Basic accounts are unsupported. Please share a video from a different account.';

/** The origin Vimeo's players post their messages from. */
export const VIMEO_PLAYER_ORIGIN = 'https://player.vimeo.com';

/** Whether a message from `origin` carrying `data` is a Vimeo player refusing to play here. */
export function isVimeoRefusal(origin: string, data: unknown): boolean {
  if (origin !== VIMEO_PLAYER_ORIGIN) return false;
  let message: unknown = data;
  if (typeof data === 'string') {
    try {
      message = JSON.parse(data);
    } catch {
      return false;
    }
  }
  if (!message || typeof message !== 'object') return false;
  const { event, data: detail } = message as { event?: unknown; data?: unknown };
  return event === 'error' && !!detail && typeof detail === 'object' && (detail as { name?: unknown }).name === 'PrivacyError';
}

/**
 * Listens for `frame`'s refusal (a Vimeo player only) and warns the owner once; returns a
 * function that stops listening.
 */
export function watchVimeoRefusal(win: Window, frame: HTMLIFrameElement | HTMLObjectElement): () => void {
  let warned = false;
  const listener = (event: MessageEvent) => {
    if (warned || event.source !== frame.contentWindow || !isVimeoRefusal(event.origin, event.data)) return;
    warned = true;
    console.warn(VIMEO_BASIC_UNSUPPORTED);
  };
  win.addEventListener('message', listener);
  return () => win.removeEventListener('message', listener);
}
