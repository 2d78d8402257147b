// The restaurant booking block's widget (no React): its layout follows its width, and a
// signed-in owner gets a preview only.
import './restaurant-booking.css';
import { watchBookingLayout } from './layout';
import { previewOnly, signedInOwner } from './preview';

/** Mounts the restaurant booking widget in the block `el`. */
export function mount(el: HTMLElement, data: unknown): void {
  const provider = (data as { provider?: unknown } | null)?.provider;
  watchBookingLayout(el, typeof provider === 'string' ? provider : '');
  if (window.Veranda?.context?.authenticatedAccount) {
    void signedInOwner(window.fetch.bind(window)).then((owner) => owner && previewOnly(el));
  }
}
