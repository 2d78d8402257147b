// The edits stream's events as the panel keeps them: newest first, at most `MAX_EDITS`.
import { isRecord } from '../../../data/is-record';
import type { EditEvent, EditName } from '../../../generated/types';
import type { RecentEvents } from '../../../generated/types';
import type { Cursor, EventFrame } from '../../streams/frames';

/** The query key of the edits seen since the dashboard opened. */
export const EDITS_KEY = ['streams', 'edits'] as const;

/** How many edits the panel keeps. */
export const MAX_EDITS = 100;

/** One editor event (spec 001 §7) with where it sits in the stream. */
export type EditEntry = Omit<EditEvent, 'paths'> & {
  /** `epoch:offset`, unique in the stream. */
  key: string;
  /** When it was published (unix ms). */
  at: number;
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The entry of an edits-stream event; `null` when it is not an editor event. */
export function toEditEntry(frame: EventFrame): EditEntry | null {
  const d = frame.data;
  if (!isRecord(d)) return null;
  const name = text(d.name);
  if (!name) return null;
  return {
    key: `${frame.epoch}:${frame.offset}`,
    at: frame.at,
    name: name as EditName,
    actor: text(d.actor),
    action: text(d.action),
    objectType: text(d.objectType),
    objectId: text(d.objectId),
    productPage: text(d.productPage),
    productSection: text(d.productSection),
  };
}

/** `edits` with `entry` in front, trimmed to `MAX_EDITS`. */
export function addEdit(edits: readonly EditEntry[] | undefined, entry: EditEntry): EditEntry[] {
  return [entry, ...(edits ?? [])].slice(0, MAX_EDITS);
}

/**
 * The listed past edits, after the live ones the list does not hold yet (those that came on
 * the stream while it was read again after a failure), trimmed to `MAX_EDITS`.
 */
export function keepLive(listed: EditEntry[], seen: readonly EditEntry[] | undefined): EditEntry[] {
  const known = new Set(listed.map((e) => e.key));
  return [...(seen ?? []).filter((e) => !known.has(e.key)), ...listed].slice(0, MAX_EDITS);
}

/** How many past edits the panel lists when it opens. */
export const PAST_EDITS_LIMIT = MAX_EDITS;

/** The route listing the latest edits of the stream's history. */
export const PAST_EDITS_PATH = `/api/streams/edits/events?limit=${PAST_EDITS_LIMIT}`;

/** The query key of the past edits read when the panel opens. */
export const PAST_EDITS_KEY = ['streams', 'edits', 'past'] as const;

/** The listed edits, newest first, and where the live stream resumes (the stream's position then). */
export function fromRecent(recent: RecentEvents): { edits: EditEntry[]; cursor: Cursor } {
  const edits: EditEntry[] = [];
  for (const event of recent.events) {
    const entry = toEditEntry({ type: 'event', stream: 'edits', ...event });
    if (entry) edits.unshift(entry);
  }
  return { edits: edits.slice(0, MAX_EDITS), cursor: { epoch: recent.epoch, offset: recent.offset } };
}

export type { RecentEvents };
