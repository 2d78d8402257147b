// Census calls of spec 000 §7: the page hit (`RecordHit`), and the button, form-render and
// overlay calls islands make. All are form-encoded, given up after 2,500 ms, never retried,
// and their failures swallowed; none is sent when the page context disables analytics.
import type { PageContext } from '../../generated/types';
import { postForm } from './transport';

/** How long a census call may take before it is abandoned. */
export const CENSUS_TIMEOUT_MS = 2500;

/** A form field value before encoding; `null` is sent as an empty string. */
type FieldValue = string | number | boolean | null | undefined;

/** A button block as the button census calls describe it. */
export interface ButtonCensus {
  /** Block id. */
  id: string;
  /** The label shown. */
  buttonText: string;
  /** Where it leads. */
  clickthroughUrl: string;
  /** Alignment as configured. */
  alignment: string;
  /** Size as configured. */
  size: string;
  /** Opens in a new window. */
  newWindow: boolean;
  /** Where the button sits (block, product page, ...). */
  context: string;
}

/** The census calls of a page. */
export interface Census {
  /** Records this page view (`event=view`, or `event=search` on `/search`). */
  recordHit(): Promise<void>;
  /** Records that a button block was rendered. */
  buttonRender(button: ButtonCensus): Promise<void>;
  /** Records a click on a button block. */
  buttonClick(button: ButtonCensus): Promise<void>;
  /** Records that form `formId` was rendered. */
  formRender(formId: string): Promise<void>;
  /** Records a popup overlay event (shown, closed, submitted, ...). */
  overlay(event: string): Promise<void>;
  /** Records that the quick view of product item `itemId` was opened (no payload). */
  quickView?(itemId: string): Promise<void>;
}

/** Whether `win` can use localStorage (blocked storage throws on access). */
function localStorageSupported(win: Window): boolean {
  try {
    const key = '__ss_census';
    win.localStorage.setItem(key, key);
    win.localStorage.removeItem(key);
    return true;
  } catch {
    return false;
  }
}

/** The `data` JSON of `RecordHit`: exactly the fields of spec 000 §7. */
export function hitData(win: Window, context: PageContext): Record<string, unknown> {
  const { location, document: doc } = win;
  const place = context.itemId ? { itemId: context.itemId } : { collectionId: context.collectionId ?? null };
  return {
    userAgent: win.navigator.userAgent,
    clientDate: Date.now(),
    viewportInnerWidth: win.innerWidth,
    viewportInnerHeight: win.innerHeight,
    screenWidth: win.screen.width,
    screenHeight: win.screen.height,
    websiteId: context.website?.id ?? null,
    templateId: context.templateId ?? null,
    website_locale: context.website?.language ?? null,
    url: location.pathname,
    title: doc.title,
    ...place,
    recordType: context.item?.recordType ?? null,
    queryString: location.search,
    referrer: doc.referrer,
    localStorageSupported: localStorageSupported(win),
  };
}

/** The page fields census calls carry: title, id, source, path and permission type. */
export function pageFields(win: Window, context: PageContext): Record<string, FieldValue> {
  return {
    pageTitle: context.pageTitle ?? win.document.title,
    pageId: context.pageId ?? null,
    contentSource: context.itemId ? 'i' : 'c',
    pagePath: context.pagePath ?? win.location.pathname,
    pagePermissionTypeValue: context.collection?.permissionType ?? null,
  };
}

/** Form-encodes `fields`: `null` and `undefined` become empty strings. */
function encode(fields: Record<string, FieldValue>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) out[key] = value == null ? '' : String(value);
  return out;
}

/** Whether `path` is the dashboard (`/config` or below it), as a path segment: `/configuration` is a page. */
export function inConfigArea(path: string): boolean {
  return path === '/config' || path.startsWith('/config/');
}

/**
 * The census calls of a page. `visitorCookie` is the `ss_cvr` value sent with each call
 * (empty when consent keeps the cookie away).
 */
export function createCensus(win: Window, context: PageContext | null, visitorCookie: string): Census {
  const enabled = context?.analyticsEnabled === true && !inConfigArea(win.location.pathname);
  /** Posts to `/api/census/{path}` the fields `build` makes, only when analytics are on. */
  const send = async (path: string, build: (context: PageContext) => Record<string, FieldValue>) => {
    if (enabled && context) await postForm(`/api/census/${path}`, encode(build(context)), CENSUS_TIMEOUT_MS);
  };
  const withPage = (path: string, fields: Record<string, FieldValue>) =>
    send(path, (ctx) => ({ ...fields, visitorCookie, ...pageFields(win, ctx) }));
  return {
    recordHit: () =>
      send('RecordHit', (ctx) => ({
        event: win.location.pathname === '/search' ? 'search' : 'view',
        data: JSON.stringify(hitData(win, ctx)),
        ss_cvr: visitorCookie,
      })),
    buttonRender: (button) => withPage('button-render', { ...button }),
    buttonClick: (button) => withPage('button-click', { ...button }),
    formRender: (formId) => withPage('form-render', { formId }),
    overlay: (event) => withPage('overlay', { event }),
    quickView: (itemId) => send(`RecordQuickView/${encodeURIComponent(itemId)}`, () => ({})),
  };
}
