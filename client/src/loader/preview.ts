// The live-preview hook: for a signed-in contributor who is not a viewer (an owner, admin or
// editor, or a member: the page context cannot tell owners from members), imports the preview
// chunk, which asks the server whether the account may watch the edits stream before it opens it.
import { ContributorRole, type PageContext } from '../generated/types';
import { hasWebsiteRole } from './context';

/** Starts the live preview on `win` when the page context allows it; `load` imports the chunk. */
export function watchPreview(
  win: Window,
  context: PageContext | null,
  load = () => import('../preview/index'),
): void {
  if (!context?.authenticatedAccount || hasWebsiteRole(context, ContributorRole.Viewer) || !('WebSocket' in win)) return;
  void load().then((m) => m.startPreview(win, context), () => {});
}
