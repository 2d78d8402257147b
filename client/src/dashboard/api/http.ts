// The dashboard's one API client: same-origin JSON reads with the server's error message.

/** A refused or failed request, with the server's `{error}` message when it gave one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** GETs `path` as JSON; throws an `ApiError` carrying the server's message on a non-2xx answer. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' }, signal });
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
