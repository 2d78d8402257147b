// The menu-tabs island: replaces the server-rendered menu (a heading and the dishes per
// tab) with a tabs widget. Data that holds no usable tab leaves the HTML as it is.
import { createRoot } from 'react-dom/client';
import { MenuTabs } from './menu-tabs';
import { parseMenuTabs } from './parse';

/** Mounts the tabs widget in `el`, the block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  const block = parseMenuTabs(data);
  if (!block) {
    console.warn(`Veranda: ${el.id || 'a menu-tabs block'} has no usable tabs; left as is.`);
    return;
  }
  createRoot(el).render(<MenuTabs tabs={block.tabs} />);
}
