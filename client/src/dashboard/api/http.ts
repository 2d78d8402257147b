// The dashboard's one API client: same-origin JSON reads with the server's error message,
// or the spec's 'Network error' when the request never reached the server.
import { NETWORK_ERROR } from '../messages';

/** A refused or failed request, with the server's `{error}` message when it gave one; status 0 when no answer came. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * GETs `path` as JSON; throws an `ApiError` carrying the server's message on a non-2xx answer,
 * or 'Network error' (status 0) when `fetch` itself fails. An aborted read rejects as aborted.
 */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    // `fetch` rejects with a TypeError when no answer comes (offline, refused, DNS, CORS).
    if (error instanceof TypeError && !signal?.aborted) throw new ApiError(0, NETWORK_ERROR);
    throw error;
  }
  if (!res.ok) {
    let message = `The server answered ${res.status}.`;
    try {
      const body: unknown = await res.json();
      if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
        message = (body as { error: string }).error;
      }
    } catch {
      // Not JSON: keep the status message.
    }
    throw new ApiError(res.status, message);
  }
  return (await res.json()) as T;
}
