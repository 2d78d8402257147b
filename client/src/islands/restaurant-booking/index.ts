// The restaurant booking block's widget (no React): its layout follows its width; a
// signed-in owner gets a preview only; every other visitor whose consent allows third-party
// scripts gets the provider's booking widget on top of the server's booking link.
import './restaurant-booking.css';
import { analyticsCookiesAllowed } from '../../loader/telemetry/cookies';
import { watchBookingLayout } from './layout';
import { previewOnly, signedInOwner } from './preview';
import { startBookingWidget, type BookingState } from './script';

/** The block data the widget reads. */
interface BookingData {
  provider: string;
  restaurantId: string;
}

function parse(data: unknown): BookingData {
  const d = (data ?? {}) as { provider?: unknown; restaurantId?: unknown };
  return {
    provider: typeof d.provider === 'string' ? d.provider : '',
    restaurantId: typeof d.restaurantId === 'string' ? d.restaurantId : '',
  };
}

/** How the block was started: the owner's preview, no widget (consent), or the widget's end state. */
export type BookingStart = 'preview' | 'not-allowed' | BookingState | null;

/**
 * Starts the block `el` in `win`: a signed-in owner gets the preview and nothing loads;
 * otherwise, where the visitor's consent allows analytics cookies (the rule the social follow
 * script follows), the provider's widget script loads.
 */
export async function startBooking(win: Window, el: HTMLElement, data: unknown): Promise<BookingStart> {
  const { provider, restaurantId } = parse(data);
  const context = win.Veranda?.context ?? null;
  if (context?.authenticatedAccount && (await signedInOwner(win.fetch.bind(win)))) {
    previewOnly(el, provider);
    return 'preview';
  }
  if (!analyticsCookiesAllowed(win.document, context)) return 'not-allowed';
  return startBookingWidget(win, el, provider, restaurantId);
}

/** Mounts the restaurant booking widget in the block `el`. */
export function mount(el: HTMLElement, data: unknown): void {
  watchBookingLayout(el, parse(data).provider);
  void startBooking(window, el, data);
}
