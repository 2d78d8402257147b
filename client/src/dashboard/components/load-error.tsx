// What a panel shows when its data could not be read: the spec's 'Unable to load. Try again.',
// the reason (the server's message, or 'Network error'), and a button that reads it again.
import { TRY_AGAIN, UNABLE_TO_LOAD_TRY_AGAIN } from '../messages';

/** The failed read's message and a Try again button calling `onRetry` (a query's `refetch`). */
export function LoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <div role="alert" className="load-error">
      <p>
        {UNABLE_TO_LOAD_TRY_AGAIN} <span className="load-error__reason">{error.message}</span>
      </p>
      <button type="button" onClick={onRetry}>
        {TRY_AGAIN}
      </button>
    </div>
  );
}
