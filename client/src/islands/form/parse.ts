// Reads a form or newsletter block's data (`data-block-json`) into typed blocks; data that
// is not a usable form gives `null` and the server's HTML stays as it is.
import type { FieldKind, FormBlock, FormField, NewsletterBlock } from '../../generated/types';
import { isRecord } from '../../data/is-record';

const KINDS: ReadonlySet<string> = new Set<FieldKind>([
  'text', 'textarea', 'email', 'number', 'website', 'currency', 'password', 'twitter', 'date', 'time',
  'name', 'address', 'phone', 'section', 'radio', 'checkbox', 'select', 'likert', 'hidden',
]);

function text(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A field as the island uses it: `maxLength` is a plain number, 0 when there is none (the
 * generated type carries the server's i64 as `bigint`; JSON brings a number).
 */
export type Field = Omit<FormField, 'maxLength'> & { maxLength: number };

/**
 * A form whose fields are [`Field`]s. `validate` is the caller's switch for the whole-form
 * check (000 §5 "The check can be switched off by the caller"): true unless the block data
 * says `"validate": false`.
 */
export type Form = Omit<FormBlock, 'fields'> & {
  fields: Field[];
  validate: boolean;
  /** The message for an invalid email address, when not the §5 form message. */
  emailMessage?: string;
};

/** Spec §5: a non-numeric or negative maximum is 0, meaning none. */
function maxLengthOf(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

function parseField(value: unknown): Field | null {
  if (!isRecord(value) || text(value.id) === '' || !KINDS.has(text(value.type))) return null;
  const options = Array.isArray(value.options) ? value.options.filter((o): o is string => typeof o === 'string') : [];
  return {
    id: text(value.id),
    type: text(value.type) as FieldKind,
    title: text(value.title),
    description: text(value.description),
    placeholder: text(value.placeholder),
    required: value.required === true,
    options,
    maxLength: maxLengthOf(value.maxLength),
    currencySymbol: optionalText(value.currencySymbol),
    showCountryCode: value.showCountryCode === true,
    underline: value.underline === true,
    key: optionalText(value.key),
    value: optionalText(value.value),
  };
}

/** The form, or `null` without a form id or fields. Malformed fields are left out. */
export function parseFormBlock(data: unknown): Form | null {
  if (!isRecord(data) || text(data.formId) === '' || !Array.isArray(data.fields)) return null;
  const fields = data.fields.map(parseField).filter((f): f is Field => f !== null);
  if (fields.length === 0) return null;
  return {
    formId: text(data.formId),
    title: text(data.title),
    fields,
    submitButtonText: text(data.submitButtonText, 'Submit') || 'Submit',
    successMessage: text(data.successMessage),
    postSubmitHtml: text(data.postSubmitHtml),
    successRedirect: optionalText(data.successRedirect),
    captcha: data.captcha === true,
    disclaimer: text(data.disclaimer),
    validate: data.validate !== false,
  };
}

/** The newsletter, or `null` without a form id. */
export function parseNewsletterBlock(data: unknown): NewsletterBlock | null {
  if (!isRecord(data) || text(data.formId) === '') return null;
  return {
    formId: text(data.formId),
    title: text(data.title),
    description: text(data.description),
    mailingList: text(data.mailingList),
    submitButtonText: text(data.submitButtonText, 'Sign Up') || 'Sign Up',
    successMessage: text(data.successMessage),
    captcha: data.captcha === true,
  };
}
