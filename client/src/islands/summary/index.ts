// The summary island: renders a summary block through the server when its data changes
// in the page, or when the server left it for the browser (`data-render="client"`).
// See `render.ts` for when and how.
import { renderWidget } from './render';

/** The event that carries a block's new data. */
export const BLOCK_DATA_EVENT = 'veranda:block-data';

/** Takes over a summary block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  let latest = 0;
  const render = (value: unknown) => {
    const mine = ++latest;
    el.setAttribute('aria-busy', 'true');
    void renderWidget(el, 'summary', value).finally(() => mine === latest && el.removeAttribute('aria-busy'));
  };
  if (el.dataset.render === 'client') render(data);
  el.addEventListener(BLOCK_DATA_EVENT, (event) => render((event as CustomEvent).detail));
}
