// The page's life (spec 000 §4 "Page initialisation"): not initialised, then initialised once
// every registered initialiser has run. The initialised-once flag stays set, so a second run
// (the loader linked twice, or started again by a script) is detected and logged instead of
// starting everything twice. An initialiser that fails is logged and skipped; the rest still
// run. A global destroy runs the destructors the initialisers returned, newest first, and
// clears the flag, so the page can be initialised again.

/** What an initialiser may give back: a destructor run by the page's destroy. */
export type Destructor = () => void;

/** One step of the page's start; may return a destructor. */
export type Initialiser = () => Destructor | void;

/** Logged when initialisation runs while the page is already initialised (spec 000 §4). */
export const SECOND_RUN_MESSAGE = 'Detected second run, this is bad.';

/** The page's initialisers, run once, and their destructors. */
export interface PageLifecycle {
  /** Whether every initialiser has run and no destroy came since. */
  readonly isInitialised: boolean;
  /**
   * Runs every initialiser in order; a failing one is logged and skipped. A second call
   * before {@link destroy} logs {@link SECOND_RUN_MESSAGE} and runs nothing. Returns whether
   * this call ran them.
   */
  initialise(): boolean;
  /** Runs the destructors, newest first (a failing one is logged), and clears the flag. */
  destroy(): void;
}

/** Runs a step; a failing one is logged (its stack names it) and skipped. */
function attempt(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    console.error('Veranda: a page initialiser could not start.', error);
  }
}

/** The lifecycle of a page started by `initialisers`. */
export function pageLifecycle(initialisers: Initialiser[]): PageLifecycle {
  let destructors: Destructor[] = [];
  let initialised = false;
  return {
    get isInitialised() {
      return initialised;
    },
    initialise() {
      if (initialised) {
        console.error(SECOND_RUN_MESSAGE);
        return false;
      }
      for (const run of initialisers) {
        const destroy = attempt(run);
        if (typeof destroy === 'function') destructors.unshift(destroy as Destructor);
      }
      return (initialised = true);
    },
    destroy() {
      destructors.forEach(attempt);
      destructors = [];
      initialised = false;
    },
  };
}
