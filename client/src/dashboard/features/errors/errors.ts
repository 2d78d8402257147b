// The error groups as `GET /api/events/errors` gives them and the errors stream updates them.
import type { ErrorGroup as WireErrorGroup, ErrorHoursReport, RecentError } from '../../../generated/types';
import { getJson } from '../../api/http';

/** The query key of the error list. */
export const ERRORS_KEY = ['telemetry', 'errors'] as const;

/** The errors sharing one fingerprint. */
export type ErrorGroup = WireErrorGroup;

/** One recent error record (only the fields the panel shows). */
export type ErrorRecord = Pick<RecentError, 'fingerprint' | 'stack'>;

/** The answer of `GET /api/events/errors`. */
export interface ErrorList {
  /** Groups, most recently seen first. */
  groups: ErrorGroup[];
  /** Recent records, newest first. */
  records: ErrorRecord[];
}

/** The route of the errors per hour. */
export const ERROR_HOURS_PATH = '/api/stats/errors';

/** The query key of the errors per hour. */
export const ERROR_HOURS_KEY = ['stats', 'errors'] as const;

/** How often the errors per hour are read again while the tab is visible (and soon after a new error). */
export const ERROR_HOURS_REFRESH_MS = 60_000;

/** Reads the errors per hour, in all and per group. */
export function fetchErrorHours(signal?: AbortSignal): Promise<ErrorHoursReport> {
  return getJson<ErrorHoursReport>(ERROR_HOURS_PATH, signal);
}

export type { ErrorHoursReport };

/** Reads the error list. */
export function fetchErrors(signal?: AbortSignal): Promise<ErrorList> {
  return getJson<ErrorList>('/api/events/errors', signal);
}

/** The group an `errorGrouped` event carries; `null` for any other event. */
export function groupOfEvent(data: unknown): ErrorGroup | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (d.type !== 'errorGrouped' || typeof d.fingerprint !== 'string' || typeof d.count !== 'number') return null;
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    fingerprint: d.fingerprint,
    message: typeof d.message === 'string' ? d.message : '',
    file: typeof d.file === 'string' ? d.file : '',
    line: num(d.line),
    column: num(d.column),
    lastUrl: typeof d.lastUrl === 'string' ? d.lastUrl : '',
    firstSeen: num(d.firstSeen) ?? 0,
    lastSeen: num(d.lastSeen) ?? 0,
    count: d.count,
  };
}

/** `list` with `group` in place of the one of the same fingerprint (never a lower count), most recently seen first. */
export function upsertGroup(list: ErrorList, group: ErrorGroup): ErrorList {
  const old = list.groups.find((g) => g.fingerprint === group.fingerprint);
  if (old && old.count > group.count) return list;
  const groups = [group, ...list.groups.filter((g) => g.fingerprint !== group.fingerprint)];
  groups.sort((a, b) => b.lastSeen - a.lastSeen);
  return { ...list, groups };
}

/** `file:line:column`, leaving out what is unknown. */
export function location(group: ErrorGroup): string {
  return [group.file || 'unknown file', group.line, group.column].filter((p) => p !== null).join(':');
}
