// Analytics events of spec 001 §7 and §8: `RecordEvent` (form-encoded, with the crumb and
// the page's data) and the event tracker that posts to `{events host}/api/v1/events`
// (beacon first, JSON `fetch` when no beacon is taken). The tracker accepts a common field
// only when its value has the declared type or is `null`; anything else is warned about
// and left out.
import type { PageContext } from '../../generated/types';
import type { SessionInfo } from './session';
import { CRUMB_COOKIE, postForm, readCookie, telemetryAllowed } from './transport';

/** Where `RecordEvent` goes. */
export const RECORD_EVENT_URL = '/api/events/RecordEvent';
/** The tracker's path on the events host. */
export const TRACK_PATH = '/api/v1/events';
/** How long a `RecordEvent` call may take. */
export const RECORD_EVENT_TIMEOUT_MS = 10_000;

/** The common fields the tracker knows, with the type each must have. */
export const COMMON_FIELDS = {
  actor: 'string',
  action: 'string',
  objectType: 'string',
  objectId: 'string',
  productPage: 'string',
  productSection: 'string',
  websiteId: 'string',
  sessionId: 'string',
  pagePath: 'string',
  isFirstLanding: 'boolean',
  isFirstSession: 'boolean',
  clientTimestamp: 'number',
} as const;

/** A common field's name. */
export type CommonField = keyof typeof COMMON_FIELDS;

/** What `RecordEvent` may add to the page's data. */
export interface RecordEventExtra {
  /** The product variant concerned. */
  variantId?: string | null;
  /** The member account concerned. */
  memberAccountId?: string | null;
}

/** The analytics event calls of a page. */
export interface Events {
  /** Posts `event` to `RecordEvent` (only when analytics are on for this page). */
  recordEvent(event: string, extra?: RecordEventExtra): Promise<void>;
  /** Sends an event of schema `customSchemaName` to the tracker. */
  track(customSchemaName: string, common?: Record<string, unknown>, custom?: Record<string, unknown>): Promise<void>;
}

/** Keeps the fields of `input` that are declared and have their type or `null`; warns about the rest. */
export function acceptCommonFields(input: Record<string, unknown>): Partial<Record<CommonField, unknown>> {
  const out: Partial<Record<CommonField, unknown>> = {};
  for (const [key, value] of Object.entries(input)) {
    const declared = Object.hasOwn(COMMON_FIELDS, key) ? COMMON_FIELDS[key as CommonField] : undefined;
    if (declared && (value === null || typeof value === declared)) out[key as CommonField] = value;
    else console.warn(`Veranda: common field "${key}" is not ${declared ?? 'declared'} or null; ignored.`);
  }
  return out;
}

/**
 * The event calls of a page. `session` is `null` when consent keeps identifiers away;
 * `eventsHost` is the tracker's origin (this site's own by default).
 */
export function createEvents(win: Window, context: PageContext | null, session: SessionInfo | null, eventsHost = ''): Events {
  return {
    async recordEvent(event, extra = {}) {
      if (context?.analyticsEnabled !== true) return;
      const data = {
        pageHash: win.location.hash,
        pagePath: win.location.pathname,
        websiteId: context.website?.id ?? null,
        templateId: context.templateId ?? null,
        variantId: extra.variantId ?? null,
        memberAccountId: extra.memberAccountId ?? null,
        member_locale: win.navigator.language,
        website_locale: context.website?.language ?? null,
      };
      const crumb = readCookie(win.document, CRUMB_COOKIE) ?? '';
      await postForm(RECORD_EVENT_URL, { crumb, event, data: JSON.stringify(data) }, RECORD_EVENT_TIMEOUT_MS);
    },

    async track(customSchemaName, common = {}, custom = {}) {
      const commonData = acceptCommonFields({
        websiteId: context?.website?.id ?? null,
        sessionId: session?.sessionId ?? null,
        pagePath: win.location.pathname,
        isFirstLanding: session?.isFirstLanding ?? null,
        isFirstSession: session?.isFirstSession ?? null,
        clientTimestamp: Date.now(),
        ...common,
      });
      const body = JSON.stringify({
        analyticsId: session?.analyticsId ?? null,
        commonData: JSON.stringify(commonData),
        customData: JSON.stringify(custom),
        customSchemaName,
      });
      const url = eventsHost + TRACK_PATH;
      if (!telemetryAllowed()) return;
      try {
        if (navigator.sendBeacon?.(url, new Blob([body], { type: 'application/json' }))) return;
      } catch {
        // A refused beacon falls through to fetch.
      }
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true }).catch(
        () => null,
      );
      if (response && response.status !== 200 && response.status !== 202) {
        console.error(`Error tracking event: HTTP Status ${response.status}`);
      }
    },
  };
}
