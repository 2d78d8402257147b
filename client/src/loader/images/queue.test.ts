import { describe, expect, it } from 'vitest';
import { createQueue, imageConcurrency } from './queue';

/** A job that resolves when its `finish` is called, and records that it started. */
function gate(started: number[], id: number) {
  let finish = () => {};
  const job = () =>
    new Promise<void>((resolve) => {
      started.push(id);
      finish = resolve;
    });
  return { job, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the image queue', () => {
  it('loads 16 at a time, 1 on mobile', () => {
    expect(imageConcurrency(false)).toBe(16);
    expect(imageConcurrency(true)).toBe(1);
  });

  it('never runs more than its concurrency and keeps the order', async () => {
    const started: number[] = [];
    const queue = createQueue(2);
    const gates = [1, 2, 3, 4].map((id) => gate(started, id));
    gates.forEach((g) => queue.push(g.job));
    expect(started).toEqual([1, 2]);
    expect(queue.running).toBe(2);
    gates[0]!.finish();
    await tick();
    expect(started).toEqual([1, 2, 3]);
    gates[1]!.finish();
    gates[2]!.finish();
    await tick();
    expect(started).toEqual([1, 2, 3, 4]);
    gates[3]!.finish();
    await tick();
    expect(queue.running).toBe(0);
  });

  it('moves on after a failed job', async () => {
    const started: number[] = [];
    const queue = createQueue(1);
    queue.push(() => Promise.reject(new Error('broken image')));
    queue.push(async () => {
      started.push(2);
    });
    await tick();
    expect(started).toEqual([2]);
  });
});
