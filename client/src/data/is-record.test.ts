import { describe, expect, it } from 'vitest';
import { isRecord } from './is-record';

describe('isRecord', () => {
  it('accepts a JSON object, empty or not', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(JSON.parse('{"a":1}'))).toBe(true);
  });

  it('refuses null, arrays and every other JSON value', () => {
    for (const value of [null, undefined, [], [1], 'x', 0, true]) expect(isRecord(value)).toBe(false);
  });
});
