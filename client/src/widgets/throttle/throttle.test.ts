import { describe, expect, it } from 'vitest';

import { throttled } from './throttle';

/** A clock the test moves, with timers that fire when it passes them. */
function fakeClock() {
  let time = 0;
  const timers: { at: number; run: () => void }[] = [];
  return {
    now: () => time,
    setTimeout: (run: () => void, ms: number) => timers.push({ at: time + ms, run }),
    /** Moves the clock to `to`, firing the timers due on the way. */
    advance(to: number) {
      timers.sort((a, b) => a.at - b.at);
      while (timers.length && timers[0]!.at <= to) {
        const timer = timers.shift()!;
        time = timer.at;
        timer.run();
      }
      time = to;
    },
    /** Spends `ms` inside the throttled function. */
    spend(ms: number) {
      time += ms;
    },
  };
}

describe('the throttle helper', () => {
  it('waits twice the average run time after a run, and folds the calls in between into one', () => {
    const clock = fakeClock();
    const runs: number[] = [];
    const call = throttled(() => {
      runs.push(clock.now());
      clock.spend(10);
    }, clock);
    call(); // runs at 0, ends at 10: the next may start at 10 + 2 × 10 = 30
    expect(runs).toEqual([0]);
    clock.advance(15);
    call();
    call();
    clock.advance(29);
    expect(runs).toEqual([0]);
    clock.advance(30);
    expect(runs).toEqual([0, 30]);
    clock.advance(100);
    call();
    expect(runs, 'a call after the wait runs at once').toEqual([0, 30, 100]);
  });

  it('averages the last 22 run times (spec 000 §9)', () => {
    const clock = fakeClock();
    let cost = 230;
    const starts: number[] = [];
    const call = throttled(() => {
      starts.push(clock.now());
      clock.spend(cost);
    }, clock);
    call(); // one slow run: 230 ms
    cost = 10;
    for (let i = 0; i < 21; i += 1) {
      clock.advance(clock.now() + 10_000);
      call();
    }
    // 22 samples: 230 and 21 × 10, average 20, so the next run waits 40 ms after this one ended.
    const end = clock.now();
    clock.advance(end + 39);
    call();
    expect(starts).toHaveLength(22);
    clock.advance(end + 40);
    expect(starts.at(-1)).toBe(end + 40);
    // That run is the 23rd sample: the 230 ms one drops out, the average is 10, the wait 20.
    const next = end + 40 + 10;
    clock.advance(next + 19);
    call();
    expect(starts).toHaveLength(23);
    clock.advance(next + 20);
    expect(starts.at(-1)).toBe(next + 20);
  });
});
