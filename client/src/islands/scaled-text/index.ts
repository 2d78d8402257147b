// The scaled-text block's widget (no React): keeps its text on one line, down to 11 px.
import { watchScaledText } from './scaled-text';

/** Mounts the scaled-text widget in the block `el`. */
export function mount(el: HTMLElement): void {
  const text = el.querySelector<HTMLElement>('.scaled-text');
  if (text) watchScaledText(el, text);
}
