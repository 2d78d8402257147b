// The React side of a live stream: one client per mounted panel, its status as state and a
// way to connect again at once.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Cursor, EventFrame, ResetFrame, StreamName } from './frames';
import { StreamClient, type StreamClientOptions, type StreamStatus } from './stream-client';
import { UNABLE_TO_CONNECT_TRY_AGAIN } from '../messages';

/** What a panel does with its stream's events. */
export interface LiveStreamHandlers {
  /** A new event, in order, never twice. */
  onEvent(frame: EventFrame): void;
  /** The server could not replay what was missed: drop the cache and reload. */
  onReset(frame: ResetFrame): void;
}

/** Test seams: the socket factory and URL of the stream client. */
export type LiveStreamTransport = Pick<StreamClientOptions, 'socket' | 'url' | 'backoff'>;

/** Where a panel's stream starts: after `from` once `ready` (default: at once, live events only). */
export interface LiveStreamStart {
  /** Connect only when true (e.g. once past events are listed). */
  ready: boolean;
  /** The last event already known; the stream resumes after it. */
  from: Cursor | null;
}

/** A followed stream: where its connection stands, and how to connect again at once. */
export interface LiveStream {
  /** The connection's status. */
  status: StreamStatus;
  /** Connects at once while waiting to reconnect (the Try again of an unreachable stream). */
  retry(): void;
}

/** Follows `stream` while the component is mounted. */
export function useLiveStream(
  stream: StreamName,
  handlers: LiveStreamHandlers,
  transport?: LiveStreamTransport,
  start: LiveStreamStart = { ready: true, from: null },
): LiveStream {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const client = useRef<StreamClient | null>(null);
  const latest = useRef(handlers);
  latest.current = handlers;
  const seams = useRef(transport);
  const from = useRef(start.from);
  from.current = start.from;
  useEffect(() => {
    if (!start.ready) return;
    const current = new StreamClient({
      ...seams.current,
      from: from.current,
      stream,
      onEvent: (frame) => latest.current.onEvent(frame),
      onReset: (frame) => latest.current.onReset(frame),
      onStatus: setStatus,
    });
    client.current = current;
    setStatus('connecting');
    current.start();
    return () => {
      client.current = null;
      current.close();
    };
  }, [stream, start.ready]);
  const retry = useCallback(() => client.current?.retryNow(), []);
  return { status, retry };
}

/** Words for a status, for the panel's header. */
export function statusText(status: StreamStatus): string {
  switch (status) {
    case 'connecting':
      return 'Connecting…';
    case 'live':
      return 'Live';
    case 'reconnecting':
      return 'Reconnecting…';
    case 'unreachable':
      return UNABLE_TO_CONNECT_TRY_AGAIN;
    case 'signed-out':
      return 'Signed out: sign in again to follow this stream.';
    case 'closed':
      return 'Closed';
  }
}
