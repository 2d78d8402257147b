// The generic data layer (spec 000 §7 "Generic data layer", §8 "Data layer"): every call the
// page's scripts make to the server goes through `dataRequest`. No React here.
//
// A call carries the crumb (the `crumb` query parameter and the `X-CSRF-Token` header) and
// the cookies, sends `data` as JSON or form-encoded (GET and DELETE put it in the query
// string), and expects JSON. How a failure is handled:
//
// - `loginRequired` in the answer: `onLoginRequired`, else the `veranda:login-required` event
//   and, unless a listener cancels it (`preventDefault`), the sign-in prompt;
// - `authorizationFail`: the system error overlay (Reload Page, Clear);
// - `crumbFail`: the new crumb is stored and the call is sent once more (cookies enabled);
// - no answer: 'Unable to connect…', and the system error overlay says so once the retries
//   are spent; 401/403, 500/501 and 503: their messages; other
//   statuses whose body names no error (and no answer) are sent again every 200 ms while
//   `retries` lasts; an error the server names (`{error}`) is its message and final;
// - an answer that is not JSON: 'Internal Error: Unable to parse server response…'.
//
// Every failure rejects with a `DataError` (status 0 when no answer came) and, except a
// login request handled above, is also given to `onFailure`.
import { CRUMB_HEADER, currentCrumb, storeCrumb } from './crumb';
import { LOGIN_REQUIRED_EVENT, UNABLE_TO_CONNECT, statusMessage, unparseable } from './messages';
import { showSystemError } from './overlay';
import { isRecord } from './is-record';

export { currentCrumb } from './crumb';
export { LOGIN_REQUIRED_EVENT } from './messages';

/** How long to wait between retries. */
export const RETRY_DELAY_MS = 200;

/** One call. */
export interface DataRequest {
  /** Same-site URL, with or without a query string. */
  url: string;
  /** GET when left out. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Query parameters (GET, DELETE) or the body (POST, PUT). */
  data?: unknown;
  /** Send the body as JSON instead of form-encoded. */
  asJson?: boolean;
  /** How many more times to send a call that got no answer or a retryable status. */
  retries?: number;
  /** Called instead of firing the login-required event. */
  onLoginRequired?: () => void;
  /** Called with every failure (besides the promise rejecting). */
  onFailure?: (error: DataError) => void;
}

/** A failed call: the message to show, the HTTP status (0: no answer) and the parsed body. */
export class DataError extends Error {
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** The answer's JSON, or `null`. */
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.name = 'DataError';
    this.status = status;
    this.body = body;
  }
}

/** Sends `req` and resolves with the answer's JSON (see the module docs for failures). */
export async function dataRequest<T = unknown>(req: DataRequest): Promise<T> {
  let retries = Math.max(0, Math.floor(req.retries ?? 0));
  let crumbRetried = false;
  for (;;) {
    const outcome = await attempt(req);
    if (outcome.kind === 'ok') return outcome.body as T;
    if (outcome.kind === 'crumb' && !crumbRetried && storeOrKeep(outcome.body)) {
      crumbRetried = true;
      continue;
    }
    if (outcome.kind === 'retry' && retries > 0) {
      retries -= 1;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      continue;
    }
    throw fail(req, outcome);
  }
}

/** What one send gave. */
type Outcome =
  | { kind: 'ok'; body: unknown }
  | { kind: 'crumb'; body: Record<string, unknown>; error: DataError }
  | { kind: 'retry' | 'fail' | 'login'; error: DataError };

async function attempt(req: DataRequest): Promise<Outcome> {
  const method = req.method ?? 'GET';
  const crumb = currentCrumb();
  const url = new URL(req.url, window.location.href);
  if (crumb) url.searchParams.set('crumb', crumb);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (crumb) headers[CRUMB_HEADER] = crumb;
  let body: string | undefined;
  if (method === 'GET' || method === 'DELETE') {
    for (const [key, value] of Object.entries(fields(req.data))) url.searchParams.set(key, value);
  } else if (req.asJson) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(req.data ?? {});
  } else {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    body = new URLSearchParams(fields(req.data)).toString();
  }

  let response: Response;
  try {
    response = await fetch(url.toString(), { method, headers, body, credentials: 'same-origin' });
  } catch {
    return { kind: 'retry', error: new DataError(UNABLE_TO_CONNECT, 0, null) };
  }
  const status = response.status;
  const text = await response.text().catch(() => '');
  let parsed: unknown = null;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      if (response.ok) {
        const message = error instanceof Error ? error.message : String(error);
        return { kind: 'fail', error: new DataError(unparseable(req.url, message), status, null) };
      }
    }
  }
  const record = isRecord(parsed) ? parsed : null;
  const flagged = record !== null && (record.error || record.crumbFail || record.loginRequired || record.authorizationFail);
  if (response.ok && !flagged) return { kind: 'ok', body: parsed };

  const serverText = record && typeof record.error === 'string' && record.error !== '' ? record.error : null;
  const known = response.ok ? null : statusMessage(status);
  const error = new DataError(known ?? serverText ?? UNABLE_TO_CONNECT, status, parsed);
  if (record?.crumbFail) return { kind: 'crumb', body: record, error };
  if (record?.loginRequired) return { kind: 'login', error };
  if (record?.authorizationFail) {
    showSystemError(serverText ?? error.message);
    return { kind: 'fail', error };
  }
  if (!response.ok && known === null && !flagged) return { kind: 'retry', error };
  return { kind: 'fail', error };
}

/** Opens the sign-in prompt (a chunk of the members area), focus returning where it was. */
function openSignIn(): void {
  const opener = document.activeElement;
  import('../members/index')
    .then((m) => m.openLoginPrompt(window, opener))
    .catch((error: unknown) => console.error('Veranda: the sign-in prompt could not open.', error));
}

/** Stores the new crumb of a `crumbFail` answer; `false` when cookies are off. */
function storeOrKeep(body: Record<string, unknown>): boolean {
  if (!navigator.cookieEnabled) return false;
  // The server also sets the cookie itself; a body without a usable crumb still retries.
  storeCrumb(body.crumb);
  return true;
}

/** Hands a failure to the caller's handlers and gives it back to throw. */
function fail(req: DataRequest, { kind, error }: Exclude<Outcome, { kind: 'ok' }>): DataError {
  if (kind === 'login') {
    if (req.onLoginRequired) req.onLoginRequired();
    else if (window.dispatchEvent(new CustomEvent(LOGIN_REQUIRED_EVENT, { detail: { url: req.url }, cancelable: true }))) {
      openSignIn();
    }
    return error;
  }
  // No answer at all: the network is down or the server unreachable (spec 000 §8: the
  // overlay "says unable to connect for network errors").
  if (error.status === 0) showSystemError(UNABLE_TO_CONNECT);
  req.onFailure?.(error);
  return error;
}

/** `data` as text fields: strings as they are, other values as JSON; `null` and `undefined` left out. */
function fields(data: unknown): Record<string, string> {
  if (data instanceof URLSearchParams) return Object.fromEntries(data);
  if (!isRecord(data)) return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}
