// Every message the data layer gives, copied verbatim from spec 000 §8 ("Data layer"),
// and the name of the event fired when the server asks for a login.

/** A request that never reached the server (and any failure without a better message). */
export const UNABLE_TO_CONNECT = 'Unable to connect…';
/** 401 and 403. */
export const UNAUTHORIZED = 'Unauthorized request';
/** 500 and 501. */
export const INTERNAL_SERVER_ERROR = 'Internal server error. Please try again later.';
/** 503. */
export const SERVICE_UNAVAILABLE = 'This service is temporarily unavailable. Please try again later.';
/** Title of the system error overlay. */
export const SOMETHING_WENT_WRONG = 'Something Went Wrong';
/** The overlay's button that reloads the page. */
export const RELOAD_PAGE = 'Reload Page';
/** The overlay's button that closes it. */
export const CLEAR = 'Clear';

/** Fired on `window` when the server answers `loginRequired` and the caller gave no handler. */
export const LOGIN_REQUIRED_EVENT = 'veranda:login-required';

/** 'Internal Error: Unable to parse server response from ({url}) as JSON: {message}'. */
export function unparseable(url: string, message: string): string {
  return `Internal Error: Unable to parse server response from (${url}) as JSON: ${message}`;
}

/** The message for a failed answer with `status`, or `null` for statuses that may be retried. */
export function statusMessage(status: number): string | null {
  switch (status) {
    case 401:
    case 403:
      return UNAUTHORIZED;
    case 500:
    case 501:
      return INTERNAL_SERVER_ERROR;
    case 503:
      return SERVICE_UNAVAILABLE;
    default:
      return null;
  }
}
