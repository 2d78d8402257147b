// The follow button of a social-sharing block: the server renders a plain link to the
// account; here the provider's follow widget script is loaded (10 s timeout) and, once it
// is there, makes the provider's follow button next to it. When the script fails or times
// out, the link stays as it is. The script is a third party's: it is loaded only where
// the visitor's consent allows analytics cookies.
import { FOLLOW_SCRIPT_TIMEOUT_MS, loadScript } from '../../widgets/script/script';

/** The provider's follow widget script. */
export const FOLLOW_SCRIPT_URL = 'https://platform.twitter.com/widgets.js';

/** The part of the provider's global the follow button needs. */
interface FollowWidgets {
  widgets?: { createFollowButton?: (username: string, target: HTMLElement, options?: object) => Promise<unknown> };
}

/** Where the follow button is: `loading`, then `loaded` or `failed` (the link stays). */
export type FollowState = 'loading' | 'loaded' | 'failed';

/** Sets the state of the follow paragraph `el` and gives it back. */
function mark(el: HTMLElement, state: FollowState): FollowState {
  el.dataset.followState = state;
  return state;
}

/** Loads the follow widget into the follow paragraph `el` for `username`; resolves with how it ended. */
export async function startFollow(win: Window, el: HTMLElement, username: string): Promise<FollowState> {
  mark(el, 'loading');
  try {
    await loadScript(win.document, FOLLOW_SCRIPT_URL, FOLLOW_SCRIPT_TIMEOUT_MS);
    const create = (win as Window & { twttr?: FollowWidgets }).twttr?.widgets?.createFollowButton;
    if (!create) return mark(el, 'failed');
    const target = win.document.createElement('span');
    el.append(target);
    await create(username, target, { showCount: false });
    return mark(el, 'loaded');
  } catch {
    return mark(el, 'failed');
  }
}
