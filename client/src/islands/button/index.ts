// The button block's widget (no React): records its render and clicks with the census.
import { trackButton } from './button';

/** Mounts the button widget in `el` with the block's data. */
export function mount(el: HTMLElement, data: unknown): void {
  const census = window.Veranda?.telemetry?.census;
  if (census) trackButton(el, data, census);
}
