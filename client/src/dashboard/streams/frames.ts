// The frames a live stream's websocket sends (see the server's `routes/streams`), parsed
// once at the edge: anything else is ignored.
import { isRecord } from '../../data/is-record';
import type { Frame, ResetReason, StoredEvent, StreamName } from '../../generated/types';

/** A point in a stream: an epoch and the offset of an event within it. */
export type Cursor = Pick<StoredEvent, 'epoch' | 'offset'>;

/** The first frame: where the stream stands now. */
export type HelloFrame = Extract<Frame, { type: 'hello' }>;

/** One event of the stream. */
export type EventFrame = Extract<Frame, { type: 'event' }>;

/** Sent instead of a replay when the resume point is no longer in the history. */
export type ResetFrame = Extract<Frame, { type: 'reset' }>;

/** Any frame the dashboard understands. */
export type StreamFrame = Frame;

export type { StreamName };

/** The reasons a reset gives; another is read as `epoch-changed` (reload everything). */
const RESET_REASONS: readonly ResetReason[] = ['epoch-changed', 'beyond-history', 'ahead-of-stream'];

/** `value` as a reset reason. */
function resetReason(value: unknown): ResetReason {
  return RESET_REASONS.find((reason) => reason === value) ?? 'epoch-changed';
}

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
      return { type, stream, epoch, offset, reason: resetReason(value.reason) };
    default:
      return null;
  }
}
