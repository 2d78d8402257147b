// Session-stored values (spec 000 §3 "a value plus an optional expiry time", §7 "discarded
// once its expiry has passed"; 001 "Session data"): JSON `{"value": …, "expires": ms}` in the
// browser session's storage. Reading a value whose expiry has passed, or one that is not in
// this shape, removes it and gives `null`. Blocked or full storage keeps nothing.

/** What is kept under a key. */
interface Stored {
  value: unknown;
  /** Milliseconds since the epoch after which the value is gone; none: the session's end. */
  expires?: number;
}

/** The value under `key` of `storage`, or `null` when there is none, it expired, or it is unreadable. */
export function readSessionValue(storage: Storage | null, key: string, now = Date.now()): unknown {
  const raw = storage?.getItem(key);
  if (raw == null) return null;
  let stored: Partial<Stored> | null = null;
  try {
    stored = JSON.parse(raw) as Partial<Stored>;
  } catch {
    // Not ours, or damaged: dropped below.
  }
  const expires = stored?.expires;
  const readable = stored !== null && typeof stored === 'object' && 'value' in stored && (expires === undefined || typeof expires === 'number');
  if (!readable || (expires !== undefined && now >= expires)) {
    storage?.removeItem(key);
    return null;
  }
  return stored!.value;
}

/**
 * Keeps `value` under `key` of `storage` until `expires` (ms since the epoch; none: the session's
 * end). Gives whether it was kept.
 */
export function writeSessionValue(storage: Storage | null, key: string, value: unknown, expires?: number): boolean {
  const stored: Stored = expires === undefined ? { value } : { value, expires };
  try {
    storage?.setItem(key, JSON.stringify(stored));
    return storage !== null;
  } catch {
    return false;
  }
}
