import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Cursor, EventFrame, ResetFrame } from './frames';
import { FakeSocket } from '../test/fake-socket';
import { backoffDelay, StreamClient, UNREACHABLE_AFTER, type StreamStatus } from './stream-client';

let sockets: FakeSocket[];
let events: EventFrame[];
let resets: ResetFrame[];
let statuses: StreamStatus[];

function client(stream: 'edits' | 'errors' = 'edits', from: Cursor | null = null): StreamClient {
  return new StreamClient({
    stream,
    from,
    onEvent: (f) => events.push(f),
    onReset: (f) => resets.push(f),
    onStatus: (s) => statuses.push(s),
    socket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    url: (s, cursor) => (cursor ? `/api/streams/${s}?epoch=${cursor.epoch}&offset=${cursor.offset}` : `/api/streams/${s}`),
    backoff: { initialMs: 100, maxMs: 1_000 },
    random: () => 1 - Number.EPSILON,
  });
}

const hello = (offset: number, epoch = 'e1') => ({ type: 'hello', stream: 'edits', epoch, offset });
const event = (offset: number, epoch = 'e1') => ({ type: 'event', stream: 'edits', epoch, offset, at: 1_700_000_000_000 + offset, data: { name: `edit ${offset}` } });
const last = (): FakeSocket => sockets[sockets.length - 1]!;

beforeEach(() => {
  vi.useFakeTimers();
  sockets = [];
  events = [];
  resets = [];
  statuses = [];
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a stream client', () => {
  it('starts after a given cursor and skips events up to it', () => {
    const c = client('edits', { epoch: 'e1', offset: 5 });
    c.start();
    expect(last().url).toBe('/api/streams/edits?epoch=e1&offset=5');
    last().send(hello(7));
    last().send(event(5));
    last().send(event(6));
    expect(events.map((e) => e.offset)).toEqual([6]);
  });

  it('joins without a cursor, then resumes from the last event it saw', () => {
    const c = client();
    c.start();
    expect(last().url).toBe('/api/streams/edits');
    last().send(hello(12));
    expect(statuses).toEqual(['live']);
    last().send(event(13));
    last().send(event(14));
    last().drop();
    expect(statuses.at(-1)).toBe('reconnecting');
    vi.advanceTimersByTime(100);
    expect(sockets).toHaveLength(2);
    expect(last().url).toBe('/api/streams/edits?epoch=e1&offset=14');
    last().send(hello(16));
    last().send(event(15));
    last().send(event(16));
    expect(events.map((e) => e.offset)).toEqual([13, 14, 15, 16]);
    expect(c.position).toEqual({ epoch: 'e1', offset: 16 });
  });

  it('resumes from the stream position when it saw no event before the drop', () => {
    const c = client();
    c.start();
    last().send(hello(7));
    last().drop();
    vi.advanceTimersByTime(100);
    expect(last().url).toBe('/api/streams/edits?epoch=e1&offset=7');
  });

  it('drops an offset it has already seen, and frames of another stream or unreadable ones', () => {
    const c = client();
    c.start();
    last().send(hello(0));
    last().send(event(1));
    last().send(event(2));
    last().send(event(2));
    last().send(event(1));
    last().send({ ...event(3), stream: 'errors' });
    last().onmessage?.(new MessageEvent('message', { data: 'not json' }));
    last().send(event(3));
    expect(events.map((e) => e.offset)).toEqual([1, 2, 3]);
    expect(events[0]?.data).toEqual({ name: 'edit 1' });
  });

  it('passes a reset on and continues after its offset in the new epoch', () => {
    const c = client();
    c.start();
    last().send(hello(3));
    last().send(event(4));
    last().drop();
    vi.advanceTimersByTime(100);
    last().send(hello(2, 'e2'));
    last().send({ type: 'reset', stream: 'edits', epoch: 'e2', offset: 2, reason: 'epoch-changed' });
    expect(resets).toEqual([{ type: 'reset', stream: 'edits', epoch: 'e2', offset: 2, reason: 'epoch-changed' }]);
    last().send(event(2, 'e2'));
    last().send(event(3, 'e2'));
    expect(events.map((e) => `${e.epoch}:${e.offset}`)).toEqual(['e1:4', 'e2:3']);
    expect(c.position).toEqual({ epoch: 'e2', offset: 3 });
  });

  it('waits longer after each failed attempt, up to the cap, and starts over once connected', () => {
    const c = client();
    c.start();
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      last().drop();
      const before = sockets.length;
      let waited = 0;
      while (sockets.length === before) {
        vi.advanceTimersByTime(10);
        waited += 10;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    last().send(hello(0));
    last().drop();
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(7);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(8);
  });

  it('calls the stream unreachable after six failed connections in a row, and keeps trying at the capped pace', () => {
    const c = client();
    c.start();
    expect(UNREACHABLE_AFTER).toBe(6);
    for (let failed = 1; failed <= 6; failed += 1) {
      last().drop();
      expect(c.status).toBe(failed < 6 ? 'reconnecting' : 'unreachable');
      vi.advanceTimersByTime(1_000);
    }
    expect(sockets).toHaveLength(7);
    last().drop();
    expect(c.status).toBe('unreachable');
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(8);
    last().send(hello(0));
    expect(c.status).toBe('live');
  });

  it('connects at once when asked to retry, and starts the backoff over', () => {
    const c = client();
    c.start();
    for (let failed = 1; failed <= 6; failed += 1) {
      last().drop();
      if (failed < 6) vi.advanceTimersByTime(1_000);
    }
    expect(c.status).toBe('unreachable');
    c.retryNow();
    expect(sockets).toHaveLength(7);
    expect(c.status).toBe('reconnecting');
    last().drop();
    expect(c.status).toBe('reconnecting');
    vi.advanceTimersByTime(99);
    expect(sockets).toHaveLength(7);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(8);
    c.retryNow();
    expect(sockets).toHaveLength(8);
  });

  it('jitters each delay between half and all of its ceiling', () => {
    const backoff = { initialMs: 500, maxMs: 30_000 };
    expect(backoffDelay(0, backoff, 0)).toBe(250);
    expect(backoffDelay(3, backoff, 0.5)).toBe(3_000);
    expect(backoffDelay(40, backoff, 0)).toBe(15_000);
  });

  it('closes cleanly and does not reconnect after close()', () => {
    const c = client();
    c.start();
    const socket: FakeSocket = last();
    socket.send(hello(0));
    c.close();
    expect(socket.closedWith).toBe(1000);
    socket.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(statuses).toEqual(['live', 'closed']);
  });

  it('stops when the server says the session ended', () => {
    const c = client();
    c.start();
    last().send(hello(0));
    last().drop(1008);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(c.status).toBe('signed-out');
  });

  it('cancels a pending reconnection on close()', () => {
    const c = client();
    c.start();
    last().drop();
    c.close();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });
});
