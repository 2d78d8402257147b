// A websocket the dashboard's tests drive by hand.
import type { SocketLike } from '../streams/stream-client';
import type { LiveStreamTransport } from '../streams/use-live-stream';

/** A socket that records its URL; the test sends frames and drops it. */
export class FakeSocket implements SocketLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  /** The code `close()` was called with, if it was. */
  closedWith: number | null = null;

  constructor(readonly url: string) {}

  close(code?: number): void {
    this.closedWith = code ?? 1005;
  }

  /** The server sends `frame` as JSON. */
  send(frame: object): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }

  /** The connection drops with `code`. */
  drop(code = 1006): void {
    this.onclose?.(new CloseEvent('close', { code }));
  }
}

/** A transport whose sockets land in `sockets`, newest last. */
export function fakeTransport(sockets: FakeSocket[]): LiveStreamTransport {
  return {
    socket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    url: (stream, cursor) => `/api/streams/${stream}${cursor ? `?epoch=${cursor.epoch}&offset=${cursor.offset}` : ''}`,
  };
}

/** The newest open socket of `stream`. */
export function socketOf(sockets: FakeSocket[], stream: string): FakeSocket {
  const found = sockets.filter((s) => s.url.startsWith(`/api/streams/${stream}`) && s.closedWith === null).at(-1);
  if (!found) throw new Error(`no open ${stream} socket`);
  return found;
}
