// The checks of spec 000 §5 made before sending, the same as the server's
// (actors/src/forms/validate.rs): required fields, email addresses, textarea maximum
// lengths and US zip codes. The server checks again; its answer wins.
import { CHARACTER_LIMIT, US_ZIP_INVALID, emailInvalid, fieldRequired } from './messages';
import type { Field } from './parse';
import { valueParts } from './parts';
import type { FieldValue, Values } from './values';

/** Field id to message. */
export type FieldErrors = Record<string, string>;

const US_COUNTRIES = ['us', 'usa', 'united states', 'united states of america'];

/** Spec §5: 3 to 256 characters; local part, @, dotted domain ending in 2 to 4 letters or digits. */
export function isEmail(text: string): boolean {
  const length = [...text].length;
  if (length < 3 || length > 256 || /\s/.test(text)) return false;
  const at = text.indexOf('@');
  if (at <= 0) return false;
  const domain = text.slice(at + 1);
  if (domain.includes('@')) return false;
  const labels = domain.split('.');
  const last = labels.pop() ?? '';
  return labels.length > 0 && labels.every((l) => l !== '') && /^[A-Za-z0-9]{2,4}$/.test(last);
}

/** Whether `text` is longer than `max` (0: no limit), counted like the live counter. */
export function exceedsMax(max: number, text: string): boolean {
  return max > 0 && text.length > max;
}

function isMissing(field: Field, value: FieldValue): boolean {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) {
    if (field.type === 'checkbox') return value.length === 0;
    return valueParts(field).some((p, i) => p.needed && (value[i] ?? '').trim() === '');
  }
  return field.options.some((q) => !value[q]?.length);
}

function usZipOk(value: string[]): boolean {
  const [zip, country] = [(value[4] ?? '').trim(), (value[5] ?? '').trim().toLowerCase()];
  return !US_COUNTRIES.includes(country) || zip === '' || /^\d{5}$/.test(zip);
}

/** Messages a form shows in place of the usual ones. */
export interface CheckMessages {
  /** For an email address that does not follow the pattern (the §5 form message by default). */
  email?: string;
}

/** The message for one field, or `null` when it is valid. */
export function checkField(field: Field, value: FieldValue, messages: CheckMessages = {}): string | null {
  if (field.required && isMissing(field, value)) return fieldRequired(field.title.trim() || field.id);
  if (field.type === 'email' && typeof value === 'string' && value.trim() !== '' && !isEmail(value.trim())) {
    return messages.email ?? emailInvalid();
  }
  if (field.type === 'textarea' && typeof value === 'string' && exceedsMax(field.maxLength, value)) return CHARACTER_LIMIT;
  if (field.type === 'address' && Array.isArray(value) && !usZipOk(value)) return US_ZIP_INVALID;
  return null;
}

/** Every invalid field of `values`, keyed by field id. */
export function validate(fields: Field[], values: Values, messages: CheckMessages = {}): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of fields) {
    const value = values[field.id];
    if (value === undefined) continue;
    const message = checkField(field, value, messages);
    if (message) errors[field.id] = message;
  }
  return errors;
}
