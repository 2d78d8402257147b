// A signed-in site owner sees the restaurant booking block as a preview only (spec 001
// §6): following its booking link shows the 'Preview Only' alert instead.
import { alertPopup } from '../../widgets/popups/popups';

/** The alert's title. */
export const PREVIEW_TITLE = 'Preview Only';
/** The alert's message for an OpenTable block (spec 000 §6). */
export const OPENTABLE_PREVIEW_MESSAGE =
  'Please log out of your account with the provider in order to use the OpenTable Block.';
/** The alert's message for any other provider's reservation block (spec 001 §6). */
export const PREVIEW_MESSAGE = 'Please log out of your account with the provider in order to use the reservation block.';

/** The preview alert's message for a block of `provider`. */
export function previewMessage(provider: string): string {
  return provider.toLowerCase() === 'opentable' ? OPENTABLE_PREVIEW_MESSAGE : PREVIEW_MESSAGE;
}
/** The call that says who is signed in (`{id, email, roles, member, owner}`, or 401). */
export const ACCOUNT_URL = '/api/site-users/account';

/** Whether the signed-in account is the site's owner; `false` when no one is signed in. */
export async function signedInOwner(fetcher: typeof fetch): Promise<boolean> {
  try {
    const response = await fetcher(ACCOUNT_URL, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok) return false;
    const account = (await response.json()) as { owner?: unknown };
    return account.owner === true;
  } catch {
    return false;
  }
}

/** Makes the booking links of `el` (a block of `provider`) show the 'Preview Only' alert instead of leaving. */
export function previewOnly(el: HTMLElement, provider = ''): void {
  const message = previewMessage(provider);
  el.dataset.previewOnly = 'true';
  el.querySelectorAll<HTMLAnchorElement>('a.button').forEach((link) =>
    link.addEventListener('click', (event) => {
      event.preventDefault();
      alertPopup(el.ownerDocument, PREVIEW_TITLE, message);
    }),
  );
}
