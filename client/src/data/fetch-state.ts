// The generic fetch state (spec 000 §4, 001 §4 "Generic fetch: pending, then success with
// data, or failed with error (stored and logged)"): one load, watched from start to end. It
// is `pending` until the load settles, then `success` with its data or `failed` with its
// error; a failure is kept in the state and written to the console once. The `settled`
// promise never rejects, so a caller reads the outcome from the state, not from a catch.

/** Where a load stands. */
export type FetchState<T> =
  | { status: 'pending' }
  | { status: 'success'; data: T }
  | { status: 'failed'; error: unknown };

/** One watched load. */
export interface Fetch<T> {
  /** The state now. */
  readonly state: FetchState<T>;
  /** Resolves with the final state (`success` or `failed`); never rejects. */
  readonly settled: Promise<FetchState<T>>;
}

/**
 * Starts `load` and watches it. `what` names the load in the console message of a failure:
 * 'Veranda: {what} failed.' with the error; `log` replaces `console.error` (tests).
 */
export function startFetch<T>(load: () => Promise<T>, what: string, log: (...args: unknown[]) => void = console.error): Fetch<T> {
  let state: FetchState<T> = { status: 'pending' };
  const settled = Promise.resolve()
    .then(load)
    .then(
      (data): FetchState<T> => ({ status: 'success', data }),
      (error: unknown): FetchState<T> => {
        log(`Veranda: ${what} failed.`, error);
        return { status: 'failed', error };
      },
    )
    .then((final) => (state = final));
  return {
    get state() {
      return state;
    },
    settled,
  };
}
