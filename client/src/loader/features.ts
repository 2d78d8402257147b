// Feature toggles and A/B tests (spec 001 §4, §8): the typed flags of the site's
// `[features]`, as the page context carries them, read through `window.Veranda.features`.
// Every read names a default; whatever goes wrong gives that default and a console warning
// with the spec's words. An A/B test puts each visitor in a segment (0–99, from the analytics
// id and the test's name) and gives the variant whose share covers it, the same one on every
// page load. Without an analytics id (no consent under a restrictive cookie policy, or no
// cookies), everybody gets the default and segment -1.
import type { PageContext } from '../generated/types';
import { analyticsCookiesAllowed } from './telemetry/cookies';
import { ANALYTICS_COOKIE } from './telemetry/session';
import { readCookie } from './telemetry/transport';

/** Spec 001 §8, verbatim. */
export const NOT_LOADED = 'The underlying Praetor configuration is not loaded';
/** Spec 001 §8, verbatim. */
export const NO_SUCH_FEATURE = 'The specified feature does not exist';
/** Spec 001 §8, verbatim; `{type}` is boolean, number, string or split test. */
export const WRONG_TYPE = 'The specified feature is not a {type}';
/** Spec 001 §8, verbatim. */
export const INVALID_DEFINITION = 'The specified feature has an invalid server-side definition';

/** What an A/B test gives a visitor. */
export interface Assignment {
  /** The variant's name. */
  variant: string;
  /** The visitor's segment, 0–99; -1 when the default was given without one. */
  segment: number;
}

/** The reads of `window.Veranda.features`. */
export interface Features {
  /** A boolean flag, or an A/B test whose variant is named `true`. */
  isEnabled(name: string, fallback?: boolean): boolean;
  getBoolean(name: string, fallback: boolean): boolean;
  getNumber(name: string, fallback: number): number;
  getString(name: string, fallback: string): string;
  /** The visitor's variant and segment of A/B test `name`; `fallback` when not found. */
  getExperiment(name: string, fallback: string): Assignment;
}

type Kind = 'boolean' | 'number' | 'string';

/** A test's definition once checked: variants with their shares, and the default. */
interface Experiment {
  variants: [string, number][];
  fallback: string;
}

/** 32-bit FNV-1a of `text`. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The segment (0–99) of visitor `id` in test `name`. */
export function segmentOf(id: string, name: string): number {
  return fnv1a(`${name}:${id}`) % 100;
}

/** `value` as an A/B test, or `null` when it is not a valid one. */
function experiment(value: object): Experiment | null {
  const { variants, default: fallback } = value as { variants?: unknown; default?: unknown };
  if (typeof variants !== 'object' || variants === null || typeof fallback !== 'string') return null;
  const shares = Object.entries(variants as Record<string, unknown>);
  const valid = shares.every(([, share]) => Number.isInteger(share) && (share as number) >= 0);
  const total = shares.reduce((sum, [, share]) => sum + Number(share), 0);
  if (!valid || total !== 100 || !shares.some(([name]) => name === fallback)) return null;
  return { variants: shares as [string, number][], fallback };
}

/** The variant of `segment` by cumulative shares, in the order the site lists them. */
function variantOf(test: Experiment, segment: number): string {
  let upTo = 0;
  for (const [name, share] of test.variants) {
    upTo += share;
    if (segment < upTo) return name;
  }
  return test.fallback;
}

/** The visitor's analytics id, when analytics cookies are allowed and it is set. */
export function visitorId(doc: Document, context: PageContext | null): string | null {
  return analyticsCookiesAllowed(doc, context) ? readCookie(doc, ANALYTICS_COOKIE) : null;
}

/** The feature reads of `context`, for the visitor of `doc`. */
export function createFeatures(doc: Document, context: PageContext | null): Features {
  const flags = context?.features as Record<string, unknown> | undefined;
  const warn = (message: string, name: string) => console.warn(`Veranda: ${message} (${name}).`);
  // The flag `name`, or undefined after warning why there is none.
  const find = (name: string): unknown => {
    if (!flags || typeof flags !== 'object') return warn(NOT_LOADED, name);
    if (!Object.prototype.hasOwnProperty.call(flags, name)) return warn(NO_SUCH_FEATURE, name);
    const value = flags[name];
    if (value === null || Array.isArray(value)) return warn(INVALID_DEFINITION, name);
    return value;
  };
  const assign = (name: string, value: object): Assignment | null => {
    const test = experiment(value);
    if (!test) return null;
    const id = visitorId(doc, context);
    if (!id) return { variant: test.fallback, segment: -1 };
    const segment = segmentOf(id, name);
    return { variant: variantOf(test, segment), segment };
  };
  // `value` (already found) when it has type `kind`; otherwise `fallback`, with a warning.
  const checked = <T>(kind: Kind, name: string, value: unknown, fallback: T): T => {
    if (value === undefined) return fallback;
    if (typeof value === kind) return value as T;
    warn(WRONG_TYPE.replace('{type}', kind), name);
    return fallback;
  };
  const typed = <T>(kind: Kind, name: string, fallback: T): T => checked(kind, name, find(name), fallback);
  return {
    isEnabled(name, fallback = false) {
      const value = find(name);
      if (typeof value === 'object' && value !== null) {
        const given = assign(name, value);
        if (given) return given.variant === 'true';
        warn(INVALID_DEFINITION, name);
        return fallback;
      }
      return checked('boolean', name, value, fallback);
    },
    getBoolean: (name, fallback) => typed('boolean', name, fallback),
    getNumber: (name, fallback) => typed('number', name, fallback),
    getString: (name, fallback) => typed('string', name, fallback),
    getExperiment(name, fallback) {
      const value = find(name);
      const missing = { variant: fallback, segment: -1 };
      if (value === undefined) return missing;
      if (typeof value !== 'object' || value === null) {
        warn(WRONG_TYPE.replace('{type}', 'split test'), name);
        return missing;
      }
      const given = assign(name, value);
      if (!given) warn(INVALID_DEFINITION, name);
      return given ?? missing;
    },
  };
}
