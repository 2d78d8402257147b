// Loading an island's chunk (spec 000 §8, 001 "Chunks"): an attempt that fails or takes longer
// than 120 s is retried once after a second. Browsers remember a module that failed to load,
// so when the failure names the chunk's URL the retry fetches it afresh under a query string.
// When the retry fails too, `chunk-failure.ts` says why ('Loading chunk failed' with its type
// and request). This runs from the island registry's chunk, not the loader.
import { explain as explainFailure, failedRequest } from './chunk-failure';

/** How long one attempt may take (spec: chunk load timeout 120 s). */
export const CHUNK_TIMEOUT_MS = 120_000;
/** The wait before the one retry. */
export const CHUNK_RETRY_DELAY_MS = 1_000;

/** Starts a timer and returns its cancel function; replaced in tests. */
export type SetTimer = (run: () => void, ms: number) => () => void;

/** Imports a module by URL (the retry's fresh copy); replaced in tests. */
export type ImportUrl = (url: string) => Promise<unknown>;

/** Works out the final error; replaced in tests. */
export type Explain = (chunk: string, error: unknown, timedOut: boolean) => Promise<Error>;

const timer: SetTimer = (run, ms) => {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
};

const importUrl: ImportUrl = (url) => import(/* @vite-ignore */ url);

const TIMED_OUT = new Error('timeout');

function attempt<T>(load: () => Promise<T>, setTimer: SetTimer): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancel = setTimer(() => reject(TIMED_OUT), CHUNK_TIMEOUT_MS);
    load().then(resolve, reject).finally(cancel);
  });
}

/** `url` with a query naming the retry, so the browser fetches it again. */
export function retryUrl(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}retry=1`;
}

/** Loads `chunk` with `load`, retried once; rejects with the failure `explain` works out. */
export async function loadChunk<T>(
  chunk: string,
  load: () => Promise<T>,
  { setTimer = timer, explain = explainFailure as Explain, fresh = importUrl } = {},
): Promise<T> {
  let retry = load;
  try {
    return await attempt(load, setTimer);
  } catch (error) {
    const named = error === TIMED_OUT ? null : failedRequest(error);
    if (named && !named.css) retry = () => fresh(retryUrl(named.url)) as Promise<T>;
    await new Promise<void>((resolve) => setTimer(resolve, CHUNK_RETRY_DELAY_MS));
  }
  try {
    return await attempt(retry, setTimer);
  } catch (error) {
    throw await explain(chunk, error, error === TIMED_OUT);
  }
}
