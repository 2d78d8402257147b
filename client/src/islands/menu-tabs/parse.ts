// Parses the menu-tabs block data (`{tabs:[{title, items:[{name, description, price}]}]}`).
import type { MenuItem, MenuTab, MenuTabsBlock } from '../../generated/types';
import { isRecord } from '../../data/is-record';

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function parseItem(value: unknown): MenuItem | null {
  if (!isRecord(value) || text(value.name) === '') return null;
  return { name: text(value.name), description: text(value.description), price: text(value.price) };
}

function parseTab(value: unknown): MenuTab | null {
  if (!isRecord(value) || text(value.title) === '' || !Array.isArray(value.items)) return null;
  const items = value.items.map(parseItem).filter((item): item is MenuItem => item !== null);
  return { title: text(value.title), items };
}

/** The block's tabs, or `null` when the data holds no usable tab. Malformed dishes are skipped. */
export function parseMenuTabs(data: unknown): MenuTabsBlock | null {
  if (!isRecord(data) || !Array.isArray(data.tabs)) return null;
  const tabs = data.tabs.map(parseTab).filter((tab): tab is MenuTab => tab !== null);
  return tabs.length > 0 ? { tabs } : null;
}
