// The members hook: imports the members chunk (login prompt, logout, escape shortcuts,
// owner redirect) only when a page needs it — an escape press while no dialog is open, a
// plain click on a `data-action="login"` or `data-action="logout"` control, a signed-in
// account (the owner redirect), or the logout landing (`?logout=true`). The chunk's
// `handle` decides the rest; should it fail to load, a clicked link is followed.
import type { PageContext } from '../generated/types';

type MembersChunk = typeof import('../members/index');

const importMembers = (): Promise<MembersChunk> => import('../members/index');

/** Wires the hook on `win`; `load` imports the chunk (replaced in tests). */
export function watchMembers(win: Window, context: PageContext | null, load = importMembers): void {
  const doc = win.document;
  const run = (event?: Event, href?: string | null) =>
    load()
      .then((m) => m.handle(win, context, event))
      .catch((error: unknown) => {
        console.error('Veranda: the members chunk could not start.', error);
        if (href) win.location.assign(href);
      });
  doc.addEventListener('keydown', (event) => {
    // A modal dialog takes its own escape press (read now: it is closed once the chunk loads);
    // an open non-modal one (a popup) is closed through the close-target registry.
    if (event.key === 'Escape' && !doc.querySelector('dialog:modal')) void run(event);
  });
  doc.addEventListener('click', (event) => {
    const control = (event.target as Element | null)?.closest?.('[data-action="login"], [data-action="logout"]');
    if (!control || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void run(event, control.getAttribute('href'));
  });
  if (context?.authenticatedAccount || /[?&]logout=true(&|$)/.test(win.location.search)) void run();
}
