import { beforeEach, describe, expect, it } from 'vitest';
import { readSessionValue, writeSessionValue } from './session-values';

beforeEach(() => window.sessionStorage.clear());

describe('session-stored values', () => {
  it('hold a value without expiry for the session', () => {
    expect(writeSessionValue(window.sessionStorage, 'k', { a: 1 })).toBe(true);
    expect(readSessionValue(window.sessionStorage, 'k', Number.MAX_SAFE_INTEGER)).toEqual({ a: 1 });
  });

  it('hold a value plus an expiry time, and discard it once the expiry has passed', () => {
    writeSessionValue(window.sessionStorage, 'k', 'v', 1_000);
    expect(readSessionValue(window.sessionStorage, 'k', 999)).toBe('v');
    expect(readSessionValue(window.sessionStorage, 'k', 1_000)).toBeNull();
    expect(window.sessionStorage.getItem('k')).toBeNull();
  });

  it('drop what is not a stored value', () => {
    for (const raw of ['1', 'not json', '{"expires":5}', '{"value":1,"expires":"soon"}', 'null']) {
      window.sessionStorage.setItem('k', raw);
      expect(readSessionValue(window.sessionStorage, 'k', 0)).toBeNull();
      expect(window.sessionStorage.getItem('k')).toBeNull();
    }
  });

  it('keep nothing and read nothing without storage', () => {
    expect(writeSessionValue(null, 'k', 1)).toBe(false);
    expect(readSessionValue(null, 'k')).toBeNull();
  });

  it('say so when the storage refuses the write', () => {
    const full = { setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } } as unknown as Storage;
    expect(writeSessionValue(full, 'k', 1)).toBe(false);
  });
});
