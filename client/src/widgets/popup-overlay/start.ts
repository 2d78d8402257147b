// Loader side of the popup overlay: when the site has one (style other than `none`), waits
// the configured delay, then imports the overlay chunk, which applies the rules of
// `rules.ts` and opens it when due. Sites without an overlay download nothing more.
import type { PageContext } from '../../generated/types';

/** Starts the popup overlay of `win` when the site has one. */
export function startPopupOverlay(win: Window, context: PageContext | null): void {
  const settings = context?.websiteSettings?.popupOverlaySettings;
  if (!settings || String(settings.style).trim().toLowerCase() === 'none') return;
  win.setTimeout(
    () => {
      import('./overlay')
        .then((overlay) => overlay.openWhenDue(win, context))
        .catch((error: unknown) => console.error('Veranda: the popup overlay could not start.', error));
    },
    Math.max(0, Number(settings.delaySeconds) || 0) * 1000,
  );
}
