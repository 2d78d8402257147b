// The session-recording script of spec 001 §7: it loads only when the `session-recording`
// toggle of `[features]` is on (a boolean, or an A/B test whose variant is `true`), analytics
// cookies are allowed, the visitor's segment (0–99, as for A/B tests) is below the
// `session-recording-sample` percentage (100 when unset) and the visitor id is not the mock id.
// The script's URL is the `session-recording-url` string flag; nothing loads without it.
// Before loading, the server is asked for the id the recording names the visitor by
// (`GET /api/commerce/fullstory/getId`, spec 000 §7): it answers the mock id for a visitor
// who may not be identified, and the recording is skipped.
// A chunk of its own: the loader imports it only on sites that have the toggle.
import type { PageContext } from '../generated/types';
import { loadScript } from '../widgets/script/script';
import { segmentOf, visitorId, type Features } from './features';

/** The toggle that turns session recording on. */
export const RECORDING_FLAG = 'session-recording';
/** The string flag holding the script's URL. */
export const RECORDING_URL_FLAG = 'session-recording-url';
/** The number flag holding the sampled percentage of visitors (0–100). */
export const RECORDING_SAMPLE_FLAG = 'session-recording-sample';
/** The placeholder visitor id (the shape of a real one, all zeros) that is never recorded. */
export const MOCK_VISITOR_ID = '00000000000000000000000000000000';
/** How long the recording script may take to load. */
export const RECORDING_SCRIPT_TIMEOUT_MS = 10_000;

/** The call answering the id a recording names the visitor by. */
export const RECORDING_ID_CALL = '/api/commerce/fullstory/getId';

/** The URL of the recording script for the visitor `id` (by default the analytics id of
 * the cookie), or `null` when nothing should load. */
export function recordingScript(
  doc: Document,
  context: PageContext | null,
  features: Features,
  id: string | null = visitorId(doc, context),
): string | null {
  const flags = context?.features as Record<string, unknown> | undefined;
  // A site without the toggle is the common case: no warning for it.
  if (!flags || !Object.prototype.hasOwnProperty.call(flags, RECORDING_FLAG)) return null;
  if (!features.isEnabled(RECORDING_FLAG, false)) return null;
  if (!id || id === MOCK_VISITOR_ID) return null;
  const sample = Object.prototype.hasOwnProperty.call(flags, RECORDING_SAMPLE_FLAG)
    ? features.getNumber(RECORDING_SAMPLE_FLAG, 0)
    : 100;
  if (segmentOf(id, RECORDING_FLAG) >= sample) return null;
  const url = features.getString(RECORDING_URL_FLAG, '');
  return url || null;
}

/** The server's recording id for this visitor, or `null` when it cannot be had. */
export async function fetchRecordingId(win: Window): Promise<string | null> {
  try {
    const res = await win.fetch(RECORDING_ID_CALL, { credentials: 'same-origin' });
    const id: unknown = res.ok ? await res.json() : null;
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null;
  }
}

/** Loads the recording script when `recordingScript` allows it for the id the server
 * answers; the server is asked only when the page would record at all. Failures are dropped. */
export async function startSessionRecording(
  win: Window,
  context: PageContext | null,
  features: Features,
  recordingId: (win: Window) => Promise<string | null> = fetchRecordingId,
): Promise<void> {
  if (!recordingScript(win.document, context, features)) return;
  const url = recordingScript(win.document, context, features, await recordingId(win));
  if (!url) return;
  loadScript(win.document, url, RECORDING_SCRIPT_TIMEOUT_MS).catch(() => {});
}
