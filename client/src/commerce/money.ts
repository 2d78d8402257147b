// Money in the browser (spec 000 §3 "Shopping cart", §5, §9): a money value is a currency
// code and an amount, formatted with `Intl.NumberFormat` in `en-US` the way the server
// formats it (`actors/src/commerce/money`): the currency's fraction digits (2, JPY 0),
// grouping on, whole amounts without their zero fraction unless asked.
//
// Amounts are formatted from their minor units as exact decimal text, so the 15 integer
// places the server allows do not lose digits to floating point.

/** Spec 000 §8: formatting anything that is not a money value. */
export const FORMAT_EXPECTS_MONEY = 'Format expects a Money instance.';

/** The locale every amount is written in (the server's too). */
export const MONEY_LOCALE = 'en-US';

/** Spec 000 §9: the supported currencies, in the spec's order. */
export const CURRENCIES = [
  'EUR', 'USD', 'AUD', 'NOK', 'CAD', 'NZD', 'DKK', 'GBP', 'HKD', 'CHF', 'MXN', 'SGD', 'SEK', 'CZK',
  'ILS', 'PHP', 'RUB', 'PLN', 'THB', 'MYR', 'ARS', 'BRL', 'COP', 'IDR', 'INR', 'JPY', 'ZAR',
] as const;

/** A supported currency code. */
export type CurrencyCode = (typeof CURRENCIES)[number];

/** Spec 000 §9: the currency when none (or an unknown one) is given. */
export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

/** Spec 000 §5: at most this many digits before the decimal point. */
export const MAX_INTEGER_PLACES = 15;

/** A money value as the server sends it: `{ currencyCode, value }`. */
export interface Money {
  /** ISO 4217 code. */
  currencyCode: string;
  /** The amount in major units. */
  value: number;
}

/** How to format. */
export interface MoneyFormatOptions {
  /** Leave off a zero fraction (`$12` rather than `$12.00`); off by default (spec 000 §5). */
  trimZeroFractions?: boolean;
}

/** The supported currency with code `code` (any case), else `undefined`. */
export function parseCurrency(code: unknown): CurrencyCode | undefined {
  if (typeof code !== 'string') return undefined;
  const upper = code.trim().toUpperCase();
  return (CURRENCIES as readonly string[]).includes(upper) ? (upper as CurrencyCode) : undefined;
}

/** Digits after the decimal point: 2, except JPY 0. */
export function fractionDigits(currency: CurrencyCode): number {
  return currency === 'JPY' ? 0 : 2;
}

/** `minor` units of `currency` as exact decimal text in major units ("1234.56"). */
export function minorToDecimal(minor: bigint, currency: CurrencyCode): string {
  const digits = fractionDigits(currency);
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(digits + 1, '0');
  const whole = digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
  return negative ? `-${whole}` : whole;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: CurrencyCode, trim: boolean): Intl.NumberFormat {
  const key = `${currency}:${trim}`;
  let found = formatters.get(key);
  if (!found) {
    const digits = fractionDigits(currency);
    // `trailingZeroDisplay` is ES2023; the typings this project targets predate it.
    const options = {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      trailingZeroDisplay: trim ? 'stripIfInteger' : 'auto',
    } as Intl.NumberFormatOptions;
    found = new Intl.NumberFormat(MONEY_LOCALE, options);
    formatters.set(key, found);
  }
  return found;
}

/** Formats `minor` units (cents; yen for JPY) of `currency` (unknown codes: USD). */
export function formatMinor(minor: number | bigint | string, currency: string, options: MoneyFormatOptions = {}): string {
  const code = parseCurrency(currency) ?? DEFAULT_CURRENCY;
  const units = BigInt(minor);
  const decimal = minorToDecimal(units, code);
  if (decimal.replace(/^-/, '').split('.')[0]!.length > MAX_INTEGER_PLACES) {
    throw new RangeError(`An amount has at most ${MAX_INTEGER_PLACES} integer places.`);
  }
  // Exact decimal text is accepted by `format` (Intl.NumberFormat v3).
  const format = formatter(code, options.trimZeroFractions ?? false).format as unknown as (value: string) => string;
  return format(decimal);
}

/** Whether `value` is a money value: a supported currency code and a finite amount. */
export function isMoney(value: unknown): value is Money {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    parseCurrency(record.currencyCode) !== undefined && typeof record.value === 'number' && Number.isFinite(record.value)
  );
}

/** Formats a money value; anything else throws 'Format expects a Money instance.'. */
export function formatMoney(money: unknown, options: MoneyFormatOptions = {}): string {
  if (!isMoney(money)) throw new TypeError(FORMAT_EXPECTS_MONEY);
  const code = parseCurrency(money.currencyCode)!;
  const minor = Math.round(money.value * 10 ** fractionDigits(code));
  if (!Number.isSafeInteger(minor)) throw new RangeError(`An amount has at most ${MAX_INTEGER_PLACES} integer places.`);
  return formatMinor(minor, code, options);
}
