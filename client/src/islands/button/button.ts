// The button block's census calls (spec 001 §7): one `button-render` when the block is
// mounted, one `button-click` per click or keyboard activation of its link. The calls go
// through the page's telemetry, which sends nothing without analytics or consent.
import type { ButtonCensus, Census } from '../../loader/telemetry/census';

/** The `context` census calls name for a button placed as a page block. */
export const BUTTON_CONTEXT = 'block';

/** Reads the census description of the button block `el` (id `block-<id>`) from its data. */
export function buttonCensus(el: HTMLElement, data: unknown): ButtonCensus {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : '');
  return {
    id: el.id.replace(/^block-/, ''),
    buttonText: text('buttonText'),
    clickthroughUrl: text('clickthroughUrl'),
    alignment: text('alignment'),
    size: text('size'),
    newWindow: d.newWindow === true,
    context: BUTTON_CONTEXT,
  };
}

/** Records the render of the button block `el` and watches its link for clicks. */
export function trackButton(el: HTMLElement, data: unknown, census: Census): void {
  const button = buttonCensus(el, data);
  void census.buttonRender(button);
  el.querySelector('a')?.addEventListener('click', () => void census.buttonClick(button));
}
