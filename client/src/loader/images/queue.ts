// A small work queue that runs at most `concurrency` loads at once, in the order queued.

/** One queued unit of work; the queue moves on when its promise settles. */
export type Job = () => Promise<unknown>;

/** Image loads at once: 16, or 1 on mobile (001 §9). */
export function imageConcurrency(mobile: boolean): number {
  return mobile ? 1 : 16;
}

/** A queue running at most `concurrency` jobs at a time. */
export function createQueue(concurrency: number): { push(job: Job): void; readonly running: number } {
  const waiting: Job[] = [];
  let running = 0;
  const next = () => {
    while (running < Math.max(1, concurrency) && waiting.length > 0) {
      const job = waiting.shift();
      if (!job) return;
      running += 1;
      const done = () => {
        running -= 1;
        next();
      };
      job().then(done, done);
    }
  };
  return {
    push(job: Job) {
      waiting.push(job);
      next();
    },
    get running() {
      return running;
    },
  };
}
