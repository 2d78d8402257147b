// One submission (spec 000 §7): a single-use key from `FormSubmissionKey`, then
// `SaveFormSubmission` with the payload of spec 000 §3. Failures become what the form
// shows (spec 000 §8): field errors from a 400's `errors`, else the status message
// followed by the server's own text.
import { DataError, dataRequest } from '../../data';
import { readPageContext } from '../../loader/context';
import { siteBlockId } from '../../widgets/popup-overlay/ids';
import { NO_KEY, PROCESSING_ERROR, SCROLL_DOWN, STATUS_MESSAGES, UNKNOWN_ERROR } from './messages';
import type { FieldErrors } from './validate';
import type { Values } from './values';
import { isRecord } from '../../data/is-record';

/** Where keys come from. */
export const KEY_URL = '/api/form/FormSubmissionKey';
/** Where submissions go. */
export const SAVE_URL = '/api/form/SaveFormSubmission';

/** What a submission needs. */
export interface Submission {
  /** The form's id. */
  formId: string;
  /** The block the form sits in (sent as `objectName`, without the overlay's id namespace). */
  blockId: string;
  /** The submit button's text. */
  submitButtonText: string;
  /** Field values by field id. */
  values: Values;
  /** The solved captcha, when the form has one. */
  captchaKey?: string;
}

/** How a submission ended. */
export type Outcome =
  | { ok: true; redirectUrl: string | null; postSubmitHtml: string }
  | { ok: false; message: string; fieldErrors: FieldErrors };

/** A path on this site: one leading slash, not `//` or `/\` (the server checks too). */
export function isSameSitePath(url: string): boolean {
  return /^\/(?![/\\])/.test(url) && !/[\u0000-\u001f\s]/.test(url);
}

/**
 * Where the island may send the visitor after success. The server decides which redirects
 * are allowed (a path on this site, or an address on the site's own origin or one listed in
 * `forms.redirectAllowList`: the same rule a plain post's 303 follows) and answers only
 * those as `redirectUrl`; the island follows that answer when it is a site path or a plain
 * `http(s)` address (no user info, whitespace or backslashes), and nothing else.
 */
export function followableRedirect(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (isSameSitePath(value)) return value;
  if (/[\u0000-\u0020\u007f\\]/.test(value) || !/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const plain = (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  return plain && url.hostname !== '' ? value : null;
}

/** The page fields of the save call (its second reading), from the page context. */
function pageFields(): Record<string, string> {
  const context = readPageContext(document);
  const out: Record<string, string> = { pagePath: window.location.pathname, pageTitle: document.title };
  if (!context) return out;
  if (context.pageId) out.pageId = context.pageId;
  if (context.pageTitle) out.pageTitle = context.pageTitle;
  if (context.pagePath) out.pagePath = context.pagePath;
  if (context.itemId) out.contentSource = 'i';
  else if (context.collectionId) out.contentSource = 'c';
  const permission = context.collection?.permissionType;
  if (permission !== undefined && permission !== null) out.pagePermissionTypeValue = String(permission);
  return out;
}

/** The session cookie the telemetry keeps (set only when consent allows analytics). */
const SESSION_COOKIE = 'SS_SESSION_ID';

/**
 * The save call's analytics event fields (000 §3): the event tracker's common fields (001 §7)
 * for a form submission: who did what to which object, the website, the visitor's session
 * when the telemetry keeps one, and the time on the visitor's clock.
 */
export function analyticsEventFields(formId: string, doc: Document = document): Record<string, string | number> {
  const out: Record<string, string | number> = {
    actor: 'visitor',
    action: 'submit',
    objectType: 'form',
    objectId: formId,
    clientTimestamp: Date.now(),
  };
  const websiteId = readPageContext(doc)?.website?.id;
  if (websiteId) out.websiteId = websiteId;
  const session = doc.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`));
  const sessionId = session?.slice(SESSION_COOKIE.length + 1);
  if (sessionId) out.sessionId = sessionId;
  return out;
}

/** What a failed save shows. */
export function failureOf(error: unknown): { message: string; fieldErrors: FieldErrors } {
  if (!(error instanceof DataError) || error.status === 0 || error.status < 400) {
    return { message: PROCESSING_ERROR, fieldErrors: {} };
  }
  const body = isRecord(error.body) ? error.body : {};
  if (error.status === 400 && isRecord(body.errors)) {
    const fieldErrors: FieldErrors = {};
    for (const [id, message] of Object.entries(body.errors)) {
      if (typeof message === 'string') fieldErrors[id] = message;
    }
    if (Object.keys(fieldErrors).length > 0) return { message: SCROLL_DOWN, fieldErrors };
  }
  const parts = [STATUS_MESSAGES[error.status], typeof body.error === 'string' ? body.error : undefined]
    .filter((p): p is string => !!p && p.trim() !== '')
    .filter((p, i, all) => all.indexOf(p) === i);
  return { message: parts.length > 0 ? parts.join(' ') : UNKNOWN_ERROR, fieldErrors: {} };
}

/** Sends one submission. */
export async function submit(submission: Submission): Promise<Outcome> {
  let key: unknown;
  try {
    const answer = await dataRequest({ url: KEY_URL, method: 'POST', asJson: true, data: {} });
    key = isRecord(answer) ? answer.key : undefined;
  } catch {
    key = undefined;
  }
  if (typeof key !== 'string' || key === '') return { ok: false, message: NO_KEY, fieldErrors: {} };

  const payload: Record<string, unknown> = {
    key,
    formId: submission.formId,
    collectionId: readPageContext(document)?.collectionId ?? '',
    objectName: siteBlockId(submission.blockId),
    isOverlayForm: document.getElementById(`block-${submission.blockId}`)?.closest('.popup-overlay') != null,
    submitButtonText: submission.submitButtonText,
    form: JSON.stringify(submission.values),
    ...analyticsEventFields(submission.formId),
    ...pageFields(),
  };
  if (submission.captchaKey) payload.captchaKey = submission.captchaKey;
  try {
    const answer = await dataRequest({ url: SAVE_URL, method: 'POST', asJson: true, data: payload });
    const body = isRecord(answer) ? answer : {};
    const redirect = followableRedirect(body.redirectUrl);
    const html = typeof body.postSubmitHtml === 'string' ? body.postSubmitHtml : '';
    return { ok: true, redirectUrl: redirect, postSubmitHtml: html };
  } catch (error) {
    return { ok: false, ...failureOf(error) };
  }
}
