// One live stream's websocket: connects, keeps the last `(epoch, offset)`, resumes from it
// after a drop with capped exponential backoff, drops events it has already seen, passes
// the server's reset on, and closes cleanly. After `UNREACHABLE_AFTER` failed connections in
// a row it says the stream is unreachable, keeps trying at the capped pace, and connects at
// once when asked (`retryNow`). It knows nothing of what the events mean.
import { parseFrame, type Cursor, type EventFrame, type ResetFrame, type StreamName } from './frames';

/** Where a stream connection stands. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'unreachable' | 'signed-out' | 'closed';

/** The part of `WebSocket` the client uses. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(code?: number, reason?: string): void;
}

/** Opens a socket to `url`. */
export type SocketFactory = (url: string) => SocketLike;

/** The backoff between reconnections: `initialMs`, doubling, never above `maxMs`. */
export interface Backoff {
  /** The first delay. */
  initialMs: number;
  /** The cap. */
  maxMs: number;
}

/** The default backoff: 0.5 s, 1 s, 2 s, … up to 30 s. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 500, maxMs: 30_000 };

/**
 * How many connections in a row may fail (a drop and the reconnections after it, none
 * greeted by the server) before the stream is called unreachable: with the default backoff
 * about 8 to 16 s of trying.
 */
export const UNREACHABLE_AFTER = 6;

/** The close code the server sends when the session ended: reconnecting would not help. */
export const CLOSE_SIGNED_OUT = 1008;

/** What a stream client is told and does. */
export interface StreamClientOptions {
  /** The stream to follow. */
  stream: StreamName;
  /** Called once per new event, in order. */
  onEvent(frame: EventFrame): void;
  /** Called when the server cannot replay what was missed: reload, then events continue. */
  onReset(frame: ResetFrame): void;
  /** Called whenever the status changes. */
  onStatus?(status: StreamStatus): void;
  /** Opens a socket (default: the browser's `WebSocket`). */
  socket?: SocketFactory;
  /** The URL of the stream for a cursor (default: this origin's `/api/streams/{stream}`). */
  url?(stream: StreamName, cursor: Cursor | null): string;
  /** The last event already known (e.g. listed over HTTP): the first connection resumes after it. */
  from?: Cursor | null;
  /** Reconnection delays. */
  backoff?: Backoff;
  /** A number in [0, 1) for jitter (default `Math.random`). */
  random?(): number;
}

/** The URL of `stream` on this origin, resuming after `cursor` when there is one. */
export function streamUrl(stream: StreamName, cursor: Cursor | null): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = cursor ? `?${new URLSearchParams({ epoch: cursor.epoch, offset: String(cursor.offset) })}` : '';
  return `${scheme}//${window.location.host}/api/streams/${stream}${query}`;
}

/** The delay before reconnection number `attempt` (0-based): capped doubling, scaled by 0.5–1 for jitter. */
export function backoffDelay(attempt: number, backoff: Backoff, random: number): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling * (0.5 + random / 2));
}

/** A live stream connection; call `start()` once and `close()` when done. */
export class StreamClient {
  private readonly options: StreamClientOptions;
  private socket: SocketLike | null = null;
  private cursor: Cursor | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private current: StreamStatus = 'connecting';

  constructor(options: StreamClientOptions) {
    this.options = options;
    this.cursor = options.from ?? null;
  }

  /** The last event seen (or the stream's position when it was joined). */
  get position(): Cursor | null {
    return this.cursor;
  }

  /** Where the connection stands. */
  get status(): StreamStatus {
    return this.current;
  }

  /** Opens the first connection. */
  start(): void {
    if (this.stopped || this.socket || this.timer) return;
    this.connect();
  }

  /** Connects at once when waiting to reconnect, and starts the backoff over; otherwise does nothing. */
  retryNow(): void {
    if (this.stopped || !this.timer) return;
    clearTimeout(this.timer);
    this.attempts = 0;
    this.setStatus('reconnecting');
    this.connect();
  }

  /** Closes the socket (1000) and stops reconnecting. */
  close(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, 'Dashboard closed.');
    this.setStatus('closed');
  }

  private connect(): void {
    this.timer = null;
    const url = (this.options.url ?? streamUrl)(this.options.stream, this.cursor);
    const socket = (this.options.socket ?? ((u: string) => new WebSocket(u)))(url);
    this.socket = socket;
    socket.onmessage = (event) => {
      if (this.socket === socket && typeof event.data === 'string') this.receive(event.data);
    };
    socket.onclose = (event) => {
      if (this.socket === socket) this.dropped(event.code);
    };
    // A failed connection is followed by a close event, which reconnects.
    socket.onerror = null;
    socket.onopen = null;
  }

  private receive(text: string): void {
    const frame = parseFrame(text, this.options.stream);
    if (!frame) return;
    switch (frame.type) {
      case 'hello':
        if (!this.cursor) this.cursor = { epoch: frame.epoch, offset: frame.offset };
        this.attempts = 0;
        this.setStatus('live');
        return;
      case 'reset':
        this.cursor = { epoch: frame.epoch, offset: frame.offset };
        this.options.onReset(frame);
        return;
      case 'event':
        if (this.cursor && frame.epoch === this.cursor.epoch && frame.offset <= this.cursor.offset) return;
        this.cursor = { epoch: frame.epoch, offset: frame.offset };
        this.options.onEvent(frame);
    }
  }

  private dropped(code: number): void {
    this.socket = null;
    if (this.stopped) return;
    if (code === CLOSE_SIGNED_OUT) {
      this.stopped = true;
      this.setStatus('signed-out');
      return;
    }
    const delay = backoffDelay(this.attempts, this.options.backoff ?? DEFAULT_BACKOFF, (this.options.random ?? Math.random)());
    this.attempts += 1;
    this.setStatus(this.attempts >= UNREACHABLE_AFTER ? 'unreachable' : 'reconnecting');
    this.timer = setTimeout(() => this.connect(), delay);
  }

  private setStatus(status: StreamStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.options.onStatus?.(status);
  }
}
