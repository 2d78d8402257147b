// The spec's literals, transcribed by hand in `tests/spec/*.json` (each entry cites the spec
// document, section and line). The pin tests compare the client with these, never with its
// own constants.
import constantsFile from '../../../tests/spec/constants.json';
import enumsFile from '../../../tests/spec/enums.json';
import stringsFile from '../../../tests/spec/strings.json';

/** The whole enumerations fixture, for its small maps. */
export { enumsFile };

const constants = constantsFile.constants as Record<string, { value: unknown } | undefined>;
const strings = stringsFile.strings as Record<string, { text: string } | undefined>;

/** The spec's literal value of one constant. */
export function constant(key: string): unknown {
  const entry = constants[key];
  if (entry === undefined) throw new Error(`tests/spec/constants.json has no constant ${key}`);
  return entry.value;
}

/** The spec's literal number of one constant. */
export function num(key: string): number {
  const value = constant(key);
  if (typeof value !== 'number') throw new Error(`constant ${key} is not a number`);
  return value;
}

/** The spec's wording of one string. */
export function str(key: string): string {
  const entry = strings[key];
  if (entry === undefined) throw new Error(`tests/spec/strings.json has no string ${key}`);
  return entry.text;
}

/** One numeric enumeration of the spec: the variant each listed id belongs to. */
export function numericEnum(name: string): ReadonlyArray<{ variant: string; id: number; quote: string }> {
  const table = (enumsFile.numeric as Record<string, { values: Array<{ variant: string; id: number; quote: string }> }>)[
    name
  ];
  if (table === undefined) throw new Error(`tests/spec/enums.json has no numeric enumeration ${name}`);
  return table.values;
}

/** One named enumeration of the spec: its words in the spec's order. */
export function namedEnum(name: string): readonly unknown[] {
  const table = (enumsFile.named as Record<string, { values: unknown[] }>)[name];
  if (table === undefined) throw new Error(`tests/spec/enums.json has no named enumeration ${name}`);
  return table.values;
}

/** The spec's tracking name of each item record type. */
export const trackingNames: Readonly<Record<string, string>> = enumsFile.maps.ItemTrackingName.values;
