// Reads each field's value out of the form element, in the shape spec 000 §3 gives it:
// multi-part fields an array of the sub-field values (a phone without its country part gets
// a blank one first), checkboxes an array, radio the first checked value, likert a map from
// each question to its list of checked answers, hidden the page's query parameter named like the field or its
// default. Sections are skipped.
import type { Field } from './parse';
import { valueParts, shownParts } from './parts';

/** One field's value. */
export type FieldValue = string | string[] | Record<string, string[]>;

/** Field id to value. */
export type Values = Record<string, FieldValue>;

function one(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

/** The name of likert question `index`'s radios. */
export function likertName(field: Field, index: number): string {
  return `${field.id}-${index}`;
}

/** The value of one field (`undefined` for sections). `search` is the page's query string. */
export function fieldValue(field: Field, data: FormData, search: string): FieldValue | undefined {
  switch (field.type) {
    case 'section':
      return undefined;
    case 'name':
    case 'address':
    case 'date':
    case 'time':
      return valueParts(field).map((p) => one(data, `${field.id}-${p.name}`));
    case 'phone': {
      const parts = shownParts(field).map((p) => one(data, `${field.id}-${p.name}`));
      return parts.length === 3 ? ['', ...parts] : parts;
    }
    case 'checkbox':
      return data.getAll(field.id).filter((v): v is string => typeof v === 'string');
    case 'radio': {
      const first = data.getAll(field.id).find((v): v is string => typeof v === 'string');
      return first ?? '';
    }
    case 'likert': {
      const answers: Record<string, string[]> = {};
      field.options.forEach((question, index) => {
        answers[question] = data.getAll(likertName(field, index)).filter((v): v is string => typeof v === 'string' && v !== '');
      });
      return answers;
    }
    case 'hidden': {
      const fromQuery = new URLSearchParams(search).get(field.key || field.id);
      return fromQuery ?? field.value ?? '';
    }
    default:
      return one(data, field.id);
  }
}

/** Every field's value from `form`, keyed by field id. */
export function collectValues(form: HTMLFormElement, fields: Field[], search: string): Values {
  const data = new FormData(form);
  const values: Values = {};
  for (const field of fields) {
    const value = fieldValue(field, data, search);
    if (value !== undefined) values[field.id] = value;
  }
  return values;
}
