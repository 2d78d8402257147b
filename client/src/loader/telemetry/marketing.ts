// The marketing id cookie's name, shared by the telemetry start (which copies the id into the
// page context) and the landing chunk (which creates it on a campaign landing).

/** The marketing id cookie (spec 001 §9: a session cookie). */
export const MARKETING_COOKIE = 'SS_MID';
