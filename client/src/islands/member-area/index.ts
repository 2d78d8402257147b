// The member area's widget (no React): the pricing toggle over its two price options.
import './pricing-toggle.css';
import { PricingToggle } from './pricing-toggle';

/** The option labels of a member area's data; `[]` when the data holds none. */
export function pricingLabels(data: unknown): string[] {
  const options = (typeof data === 'object' && data !== null ? (data as Record<string, unknown>).pricingOptions : null) ?? [];
  if (!Array.isArray(options)) return [];
  return options.map((o) => (typeof o === 'object' && o !== null && typeof (o as Record<string, unknown>).label === 'string' ? ((o as Record<string, unknown>).label as string) : ''));
}

/** Mounts the pricing toggle in the member area block `el`. */
export function mount(el: HTMLElement, data: unknown): void {
  const labels = pricingLabels(data);
  if (labels.some((l) => l.trim() === '')) return;
  const title = el.querySelector('h2')?.textContent?.trim() || 'Membership';
  PricingToggle.create(el, labels, title);
}
