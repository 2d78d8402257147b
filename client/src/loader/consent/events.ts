// The names of the cookie banner's window events and body class.

/** Mounts a forced banner; `detail` is the banner settings in either naming form. */
export const FORCE_EVENT = 'veranda:cookie-banner-force';
/** Mounts the banner again with new settings. */
export const UPDATE_EVENT = 'veranda:cookie-banner-update';
/** Ends the forced state and mounts with the given settings (shown only when unanswered). */
export const UNFORCE_EVENT = 'veranda:cookie-banner-unforce';
/** Announces an answer; `detail` is `{ allowed }`. */
export const CONSENT_EVENT = 'veranda:consent';
/** The body class while a forced banner is up. */
export const FORCED_CLASS = 'cookie-banner-forced';
