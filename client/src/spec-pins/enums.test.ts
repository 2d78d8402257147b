// The client's copies of the spec's enumerations (the generated types and the few lists kept
// beside the islands) carry the spec's ids and words.
import { describe, expect, it } from 'vitest';
import * as generated from '../generated/types';
import { MAP_STYLES } from '../islands/map/options';
import { HIDDEN_PAGE_TYPES } from '../widgets/popup-overlay/rules';
import { constant, namedEnum, numericEnum } from './fixtures';

const NUMERIC = [
  'PageType',
  'ContributorRole',
  'PublicationState',
  'ItemType',
  'BlockType',
  'SpecialPageKind',
  'SiteType',
  'SiteStatus',
  'ProductType',
  'MeasurementUnit',
  'Theme',
  'Border',
  'Visibility',
  'IconOrDefault',
  'FormEditorTab',
  'MapStyle',
  'Permission',
  'LayoutVariant',
] as const;

describe('numeric enumerations', () => {
  it.each(NUMERIC)('%s carries every id of the spec and nothing else', (name) => {
    const ours = (generated as unknown as Record<string, Record<string, number>>)[name]!;
    const spec = numericEnum(name);
    expect(Object.keys(ours)).toHaveLength(spec.length);
    for (const { variant, id, quote } of spec) expect(ours[variant], `${name}.${variant} (${quote})`).toBe(id);
  });

  it('map styles keep the spec ids by name', () => {
    const spec = Object.fromEntries(numericEnum('MapStyle').map((v) => [v.variant, v.id]));
    expect(MAP_STYLES).toEqual(spec);
    expect(Object.keys(MAP_STYLES).sort()).toEqual([...namedEnum('MapStyleName')].sort());
  });

  it('the popup overlay hides on the splash page and the lock screen by their spec ids', () => {
    expect([...HIDDEN_PAGE_TYPES].sort((a, b) => a - b)).toEqual(constant('popupOverlay.hiddenPageTypes'));
  });
});
