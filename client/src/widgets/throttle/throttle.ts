// The self-timing throttle (spec 000 §9 and 001 §9: "Throttle helper keeps 22 samples and
// waits twice the average run time"). It times every run of its function, keeps the last 22
// durations, and lets the next run start no sooner than twice their average after the last
// one ended: calls in between become one run at the end of that wait. A cheap function runs
// almost every time; one that forces layout (measuring text, say) backs off as it gets slower
// on a slow phone.

/** How many run times are kept. */
export const THROTTLE_SAMPLES = 22;
/** The wait after a run, as a multiple of the average run time. */
export const THROTTLE_WAIT_FACTOR = 2;

/** The clock and timers the throttle uses (the page's, or a test's). */
export interface ThrottleClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
}

const pageClock: ThrottleClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
};

/** A throttled `fn`: call it as often as events come; it runs as described above. */
export function throttled(fn: () => void, clock: ThrottleClock = pageClock): () => void {
  const samples: number[] = [];
  let readyAt = Number.NEGATIVE_INFINITY;
  let pending = false;
  const run = () => {
    pending = false;
    const started = clock.now();
    try {
      fn();
    } finally {
      const ended = clock.now();
      samples.push(ended - started);
      if (samples.length > THROTTLE_SAMPLES) samples.shift();
      const average = samples.reduce((sum, ms) => sum + ms, 0) / samples.length;
      readyAt = ended + THROTTLE_WAIT_FACTOR * average;
    }
  };
  return () => {
    if (pending) return;
    const wait = readyAt - clock.now();
    if (wait <= 0) {
      run();
      return;
    }
    pending = true;
    clock.setTimeout(run, wait);
  };
}
