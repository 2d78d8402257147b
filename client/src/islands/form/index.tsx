// The form island: takes over a form block's server-rendered `<form>` with the block's data
// (fields, messages, captcha), keeping what the visitor already typed and where the focus
// was. Data that holds no usable form leaves the HTML as it is. A rendered form is told to
// the census (`form-render`) through the page's telemetry, under its consent rules.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { restore, snapshot } from './carry';
import { FormView } from './form';
import { parseFormBlock } from './parse';

/** The block id from the element id `block-<id>`. */
export function blockIdOf(el: HTMLElement): string {
  return el.id.startsWith('block-') ? el.id.slice('block-'.length) : el.id;
}

/** Mounts the form in `el`, the block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  const form = parseFormBlock(data);
  if (!form) {
    console.warn(`Veranda: ${el.id || 'a form block'} has no usable form; left as is.`);
    return;
  }
  const carried = snapshot(el);
  const root = createRoot(el);
  flushSync(() => root.render(<FormView form={form} blockId={blockIdOf(el)} variant="form" />));
  restore(el, carried);
  void window.Veranda?.telemetry?.census.formRender(form.formId).catch(() => {});
}
