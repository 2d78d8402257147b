import { describe, expect, it } from 'vitest';
import { mount, pricingLabels } from './index';
import { PricingToggle, SELECTED_CLASS } from './pricing-toggle';

const DATA = {
  title: 'Become a member',
  pricingOptions: [
    { label: 'Monthly', priceCents: 900, billingPeriod: 'monthly', joinText: 'Join monthly' },
    { label: 'Yearly', priceCents: 9000, billingPeriod: 'yearly', joinText: 'Join for a year' },
  ],
};

function block(): HTMLElement {
  document.body.innerHTML = `<section id="block-m1"><h2>Become a member</h2><ul class="pricing">
    <li><strong>Monthly</strong>: $9.00 per month <button type="button">Join monthly</button></li>
    <li><strong>Yearly</strong>: $90.00 per year <button type="button">Join for a year</button></li></ul></section>`;
  return document.querySelector('section')!;
}

const radios = () => [...document.querySelectorAll<HTMLButtonElement>('[role="radio"]')];
const checked = () => radios().map((r) => r.getAttribute('aria-checked') === 'true');
const shown = () => [...document.querySelectorAll<HTMLElement>('ul.pricing > li')].map((li) => !li.hidden);
const key = (el: HTMLElement, k: string) => el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));

describe('the pricing toggle', () => {
  it('starts with the left option selected and only its price shown', () => {
    mount(block(), DATA);
    const group = document.querySelector('[role="radiogroup"]')!;
    expect(group.getAttribute('aria-label')).toBe('Become a member: billing period');
    expect(radios().map((r) => r.textContent)).toEqual(['Monthly', 'Yearly']);
    expect(checked()).toEqual([true, false]);
    expect(shown()).toEqual([true, false]);
    expect(radios().map((r) => r.tabIndex)).toEqual([0, -1]);
    expect(radios()[0]!.getAttribute('aria-controls')).toBe(document.querySelector('ul.pricing > li')!.id);
  });

  it('keeps exactly one option selected through clicks', () => {
    mount(block(), DATA);
    radios()[1]!.click();
    expect(checked()).toEqual([false, true]);
    expect(shown()).toEqual([false, true]);
    expect(radios()[1]!.classList.contains(SELECTED_CLASS)).toBe(true);
    expect(radios()[0]!.classList.contains(SELECTED_CLASS)).toBe(false);
    radios()[1]!.click();
    expect(checked()).toEqual([false, true]);
  });

  it('moves the selection and focus with arrow keys, wrapping around, and with Home and End', () => {
    mount(block(), DATA);
    radios()[0]!.focus();
    key(radios()[0]!, 'ArrowRight');
    expect(checked()).toEqual([false, true]);
    expect(document.activeElement).toBe(radios()[1]);
    key(radios()[1]!, 'ArrowRight');
    expect(checked()).toEqual([true, false]);
    key(radios()[0]!, 'ArrowLeft');
    expect(checked()).toEqual([false, true]);
    key(radios()[1]!, 'Home');
    expect(checked()).toEqual([true, false]);
    key(radios()[0]!, 'End');
    expect(checked()).toEqual([false, true]);
    expect(radios().map((r) => r.tabIndex)).toEqual([-1, 0]);
    const tab = new KeyboardEvent('keydown', { key: 'Tab', bubbles: true, cancelable: true });
    radios()[1]!.dispatchEvent(tab);
    expect(tab.defaultPrevented).toBe(false);
  });

  it('leaves a list that does not match its options as it is', () => {
    const el = block();
    expect(PricingToggle.create(el, ['Only one'], 'x')).toBeNull();
    expect(PricingToggle.create(el, ['A', 'B', 'C'], 'x')).toBeNull();
    mount(el, { pricingOptions: [{ label: '' }, { label: 'B' }] });
    expect(document.querySelector('[role="radiogroup"]')).toBeNull();
    expect(shown()).toEqual([true, true]);
    expect(pricingLabels(null)).toEqual([]);
    expect(pricingLabels({ pricingOptions: 'x' })).toEqual([]);
  });
});
