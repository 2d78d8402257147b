// The spec's generic interface strings (000 §8 "Other", 001 §8) where the dashboard says them.

/** A panel that failed while rendering, in place of the panel (`components/panel-boundary.tsx`). */
export const SOMETHING_WENT_WRONG = 'Something went wrong';

/** A panel whose data could not be read, above its reason and a Try again button (`components/load-error.tsx`). */
export const UNABLE_TO_LOAD_TRY_AGAIN = 'Unable to load. Try again.';

/** The reason of a request that never reached the server (`api/http.ts`). */
export const NETWORK_ERROR = 'Network error';

/** A live stream that keeps failing to connect, beside a button that connects at once (`streams/stream-status.tsx`). */
export const UNABLE_TO_CONNECT_TRY_AGAIN = 'Unable to connect. Please try again';

/** The label of the buttons that read or connect again (ours; the spec's strings ask for it). */
export const TRY_AGAIN = 'Try again';
