// The summary sub-fields of multi-part fields (spec 000 §3), in order, as the server
// renders them (server/src/render/blocks/fields.rs): input name suffix, label,
// autocomplete token, and whether the part is needed when the field is required.
import type { Field } from './parse';

/** One sub-field. */
export interface Part {
  /** Sub-field name; the input is named `<field id>-<name>`. */
  name: string;
  /** Visible label. */
  label: string;
  /** The `autocomplete` token. */
  autocomplete: string;
  /** Needed when the field is required. */
  needed: boolean;
}

const part = (name: string, label: string, autocomplete: string, needed = true): Part => ({ name, label, autocomplete, needed });

const NAME = [part('First', 'First Name', 'given-name'), part('Last', 'Last Name', 'family-name')];
const ADDRESS = [
  part('Line1', 'Address Line 1', 'address-line1'),
  part('Line2', 'Address Line 2', 'address-line2', false),
  part('City', 'City', 'address-level2'),
  part('State', 'State / Province', 'address-level1'),
  part('Zip', 'Zip / Postal Code', 'postal-code'),
  part('Country', 'Country', 'country-name'),
];
const PHONE = [
  part('Country', 'Country Code', 'tel-country-code', false),
  part('Areacode', 'Area Code', 'tel-area-code'),
  part('Prefix', 'Prefix', 'tel-local-prefix'),
  part('Line', 'Line', 'tel-local-suffix'),
];
const DATE = [part('Month', 'Month (MM)', 'off'), part('Day', 'Day (DD)', 'off'), part('Year', 'Year (YYYY)', 'off')];
const TIME = [part('Hour', 'Hour', 'off'), part('Minute', 'Minute', 'off'), part('Second', 'Second', 'off', false)];
/** The AM/PM part of a time field (a select after the text parts). */
export const AMPM = part('Ampm', 'AM/PM', 'off');

/** The text inputs a multi-part field shows (a phone's country only when asked for); empty for other kinds. */
export function shownParts(field: Field): Part[] {
  switch (field.type) {
    case 'name':
      return NAME;
    case 'address':
      return ADDRESS;
    case 'phone':
      return field.showCountryCode ? PHONE : PHONE.slice(1);
    case 'date':
      return DATE;
    case 'time':
      return TIME;
    default:
      return [];
  }
}

/** Every part a multi-part field's value holds, in the summary order (time ends with AM/PM; phone has 4). */
export function valueParts(field: Field): Part[] {
  if (field.type === 'time') return [...TIME, AMPM];
  if (field.type === 'phone') return PHONE;
  return shownParts(field);
}

/** Whether `field` is made of sub-fields. */
export function isMultiPart(field: Field): boolean {
  return valueParts(field).length > 0;
}
