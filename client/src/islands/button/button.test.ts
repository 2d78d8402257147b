import { describe, expect, it, vi } from 'vitest';
import type { Census } from '../../loader/telemetry/census';
import { BUTTON_CONTEXT, buttonCensus, trackButton } from './button';

const DATA = { buttonText: 'See the menu', clickthroughUrl: '/menu', alignment: 'center', size: 'large', newWindow: false };

function block(): HTMLElement {
  document.body.innerHTML = `<section id="block-2bdc207bb83c19c438d692f7"><p><a class="button" href="#menu">See the menu</a></p></section>`;
  return document.querySelector('section')!;
}

function census(): Census & { buttonRender: ReturnType<typeof vi.fn>; buttonClick: ReturnType<typeof vi.fn> } {
  const resolved = vi.fn(() => Promise.resolve());
  return { recordHit: resolved, buttonRender: vi.fn(() => Promise.resolve()), buttonClick: vi.fn(() => Promise.resolve()), formRender: resolved, overlay: resolved };
}

describe('the button block', () => {
  it('describes itself with the census fields of the spec', () => {
    expect(buttonCensus(block(), DATA)).toEqual({
      id: '2bdc207bb83c19c438d692f7',
      buttonText: 'See the menu',
      clickthroughUrl: '/menu',
      alignment: 'center',
      size: 'large',
      newWindow: false,
      context: BUTTON_CONTEXT,
    });
  });

  it('tolerates missing or odd data', () => {
    expect(buttonCensus(block(), null)).toMatchObject({ buttonText: '', clickthroughUrl: '', newWindow: false });
    expect(buttonCensus(block(), { buttonText: 3, newWindow: 'yes' })).toMatchObject({ buttonText: '', newWindow: false });
  });

  it('records one render on mount and one click per click', () => {
    const el = block();
    const c = census();
    trackButton(el, DATA, c);
    expect(c.buttonRender).toHaveBeenCalledTimes(1);
    expect(c.buttonClick).not.toHaveBeenCalled();
    el.querySelector('a')!.click();
    el.querySelector('a')!.click();
    expect(c.buttonClick).toHaveBeenCalledTimes(2);
    expect(c.buttonClick.mock.calls[0]![0]).toEqual(c.buttonRender.mock.calls[0]![0]);
  });

  it('records no click for a button without a link', () => {
    document.body.innerHTML = `<section id="block-x"><p><span class="button">Soon</span></p></section>`;
    const el = document.querySelector('section')!;
    const c = census();
    trackButton(el, DATA, c);
    el.querySelector('span')!.click();
    expect(c.buttonRender).toHaveBeenCalledTimes(1);
    expect(c.buttonClick).not.toHaveBeenCalled();
  });
});
