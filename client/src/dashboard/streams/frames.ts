// The frames a live stream's websocket sends (see the server's `routes/streams`), parsed
// once at the edge: anything else is ignored.
import { isRecord } from '../../data/is-record';

/** The two live streams. */
export type StreamName = 'edits' | 'errors';

/** A point in a stream: an epoch and the offset of an event within it. */
export interface Cursor {
  /** Changes when the stream's history starts over. */
  epoch: string;
  /** Grows by one per event within an epoch. */
  offset: number;
}

/** The first frame: where the stream stands now. */
export interface HelloFrame extends Cursor {
  type: 'hello';
  stream: StreamName;
}

/** One event of the stream. */
export interface EventFrame extends Cursor {
  type: 'event';
  stream: StreamName;
  /** When the event was published (unix ms). */
  at: number;
  /** The event itself, as the stream defines it. */
  data: unknown;
}

/** Sent instead of a replay when the resume point is no longer in the history. */
export interface ResetFrame extends Cursor {
  type: 'reset';
  stream: StreamName;
  /** `epoch-changed`, `beyond-history` or `ahead-of-stream`. */
  reason: string;
}

/** Any frame the dashboard understands. */
export type StreamFrame = HelloFrame | EventFrame | ResetFrame;

/** Parses one text frame; `null` when it is not a frame of `stream`. */
export function parseFrame(text: string, stream: StreamName): StreamFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value) || value.stream !== stream) return null;
  const { type, epoch, offset } = value;
  if (typeof epoch !== 'string' || typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    return null;
  }
  switch (type) {
    case 'hello':
      return { type, stream, epoch, offset };
    case 'event':
      return { type, stream, epoch, offset, at: typeof value.at === 'number' ? value.at : Date.now(), data: value.data };
    case 'reset':
      return { type, stream, epoch, offset, reason: typeof value.reason === 'string' ? value.reason : '' };
    default:
      return null;
  }
}
