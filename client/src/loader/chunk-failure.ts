// Why an island's chunk did not load (spec 000 §8 "Other", 001 "Chunks"), once its retry
// failed: 'Loading chunk failed' with its type and request; a stylesheet the chunk needs has
// the code CSS_CHUNK_LOAD_FAILED; a chunk the server answers 404 for is a not-found error
// carrying the missing path; a chunk that cannot be reached at all (the network is down)
// opens the system error overlay saying so.

/** The code of a stylesheet chunk that failed to load (spec, verbatim). */
export const CSS_CHUNK_LOAD_FAILED = 'CSS_CHUNK_LOAD_FAILED';

/** Why a chunk did not load: it timed out, the server has no such file, or the load failed. */
export type ChunkFailure = 'timeout' | 'missing' | 'error';

/** A chunk that did not load after its retry. */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  /** `CSS_CHUNK_LOAD_FAILED` for a stylesheet, otherwise absent. */
  readonly code?: string;

  constructor(
    /** The chunk's name (the island kind, or the feature). */
    readonly chunk: string,
    /** Why it failed. */
    readonly type: ChunkFailure,
    /** The URL that failed, when the browser named one; otherwise the chunk's name. */
    readonly request: string,
    /** For a not-found error: the missing path. */
    readonly path: string | null,
    cause: unknown,
    css: boolean,
  ) {
    super(`Loading chunk failed: ${chunk} (${type}: ${request})`, { cause });
    if (css) this.code = CSS_CHUNK_LOAD_FAILED;
  }
}

/** What working out a failure needs from the outside world; replaced in tests. */
export interface FailureEnvironment {
  /** The answer's status to a HEAD request for `url`, or `null` when it cannot be reached. */
  probe(url: string): Promise<number | null>;
  /** Tells the visitor the page cannot reach the server. */
  unreachable(): void;
}

const browser: FailureEnvironment = {
  probe(url) {
    return fetch(url, { method: 'HEAD', cache: 'no-store', credentials: 'same-origin' }).then(
      (answer) => answer.status,
      () => null,
    );
  },
  unreachable() {
    // The overlay is in the data layer's chunk: loaded already where an island used it.
    void Promise.all([import('../data/overlay'), import('../data/messages')]).then(
      ([overlay, messages]) => overlay.showSystemError(messages.UNABLE_TO_CONNECT),
      () => {},
    );
  },
};

/** The URL a failed `import()` names (browsers put it in the message), or `null`. */
export function failedRequest(error: unknown): { url: string; css: boolean } | null {
  const message = error instanceof Error ? error.message : String(error);
  // Vite's preload helper: 'Unable to preload CSS for /assets/x.css'.
  const css = /Unable to preload CSS for (\S+)/.exec(message);
  if (css) return { url: css[1]!, css: true };
  const url = /(https?:\/\/\S+|\/assets\/\S+)/.exec(message);
  return url ? { url: url[1]!.replace(/[).,]+$/, ''), css: /\.css(\?|$)/.test(url[1]!) } : null;
}

/** The error for `chunk`, whose last attempt failed with `error` (`timedOut`: it never settled). */
export async function explain(
  chunk: string,
  error: unknown,
  timedOut: boolean,
  env: FailureEnvironment = browser,
): Promise<ChunkLoadError> {
  if (timedOut) return new ChunkLoadError(chunk, 'timeout', chunk, null, error, false);
  const named = failedRequest(error);
  const request = named?.url ?? chunk;
  const status = named ? await env.probe(named.url) : null;
  if (named && status === 404) {
    const path = new URL(named.url, 'http://path.invalid').pathname;
    return new ChunkLoadError(chunk, 'missing', request, path, error, named.css);
  }
  if (named && status === null) env.unreachable();
  return new ChunkLoadError(chunk, 'error', request, null, error, named?.css ?? false);
}
