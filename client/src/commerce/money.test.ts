// @vitest-environment node
// The browser's money formatting agrees with the server's: every case the server's tests
// write to `money_cases.json` (27 currencies, both trimming settings, edge amounts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CURRENCIES,
  FORMAT_EXPECTS_MONEY,
  formatMinor,
  formatMoney,
  minorToDecimal,
  parseCurrency,
} from './money';

interface MoneyCase {
  currency: string;
  minor: string;
  value: string;
  trimZeroFractions: boolean;
  expected: string;
}

const CASES_FILE = new URL('../../../actors/src/commerce/money/money_cases.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(CASES_FILE, 'utf8')) as { cases: MoneyCase[] };

describe('money formatting', () => {
  it('has the server cases for every currency', () => {
    expect(cases.length).toBeGreaterThanOrEqual(702);
    expect(new Set(cases.map((c) => c.currency))).toEqual(new Set(CURRENCIES));
  });

  it('agrees with the server on every case', () => {
    const disagreements = cases
      .map((c) => ({ ...c, got: formatMinor(c.minor, c.currency, { trimZeroFractions: c.trimZeroFractions }) }))
      .filter((c) => c.got !== c.expected);
    expect(disagreements).toEqual([]);
  });

  it('writes minor units as the exact decimal the server lists', () => {
    for (const c of cases) expect(minorToDecimal(BigInt(c.minor), parseCurrency(c.currency)!)).toBe(c.value);
  });

  it('formats money values and keeps zero fractions by default', () => {
    expect(formatMoney({ currencyCode: 'USD', value: 12 })).toBe('$12.00');
    expect(formatMoney({ currencyCode: 'usd', value: 12.5 })).toBe('$12.50');
    expect(formatMoney({ currencyCode: 'USD', value: 12 }, { trimZeroFractions: true })).toBe('$12');
    expect(formatMoney({ currencyCode: 'JPY', value: 1234 })).toBe('¥1,234');
  });

  it('refuses anything that is not a money value', () => {
    for (const bad of [null, 12, '12', {}, { currencyCode: 'XXX', value: 1 }, { currencyCode: 'USD', value: NaN }]) {
      expect(() => formatMoney(bad)).toThrow(FORMAT_EXPECTS_MONEY);
    }
  });

  it('refuses amounts over 15 integer places', () => {
    expect(() => formatMinor('100000000000000000', 'USD')).toThrow(RangeError);
  });
});
