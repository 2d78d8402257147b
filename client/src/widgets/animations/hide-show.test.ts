import { afterEach, describe, expect, it, vi } from 'vitest';

import { hide, motionOff, show } from './hide-show';

/** An element whose `animate` records its calls and finishes at once. */
function animated(): { el: HTMLElement; calls: [Keyframe[], KeyframeAnimationOptions][] } {
  const el = document.createElement('div');
  document.body.append(el);
  const calls: [Keyframe[], KeyframeAnimationOptions][] = [];
  el.animate = ((frames: Keyframe[], options: KeyframeAnimationOptions) => {
    calls.push([frames, options]);
    return { finished: Promise.resolve() } as unknown as Animation;
  }) as typeof el.animate;
  return { el, calls };
}

function reducedMotion(reduce: boolean): void {
  window.matchMedia = vi.fn().mockReturnValue({ matches: reduce }) as unknown as typeof window.matchMedia;
}

describe('hide and show', () => {
  afterEach(() => {
    document.body.replaceChildren();
    vi.restoreAllMocks();
  });

  it('fade, scale and collapse for the spec default 0.3 s, scaling to 0.94', async () => {
    reducedMotion(false);
    const { el, calls } = animated();
    await hide(el, 'scale');
    expect(el.hidden).toBe(true);
    expect(calls[0]![1].duration).toBe(300);
    expect(calls[0]![0].at(-1)).toEqual({ opacity: 0, transform: 'scale(0.94)' });
    await show(el, 'scale');
    expect(el.hidden).toBe(false);
    expect(calls[1]![0][0]).toEqual({ opacity: 0, transform: 'scale(0.94)' });
    await hide(el, 'fade');
    expect(calls[2]![0]).toEqual([{ opacity: 1 }, { opacity: 0 }]);
    await show(el, 'collapse');
    expect(calls[3]![0].at(-1)).toMatchObject({ overflow: 'hidden' });
    expect(calls[3]![0][0]).toEqual({ height: '0px', overflow: 'hidden' });
  });

  it('hides and shows at once, without motion, when the visitor asks for less', () => {
    reducedMotion(true);
    const { el, calls } = animated();
    void hide(el, 'collapse');
    expect(el.hidden).toBe(true);
    void show(el, 'fade');
    expect(el.hidden).toBe(false);
    expect(calls).toEqual([]);
  });

  it('counts ?nomotion=true as asking for no motion', () => {
    const page = (search: string) =>
      ({ matchMedia: () => ({ matches: false }), location: { search } }) as unknown as Window;
    expect(motionOff(page('?nomotion=true'))).toBe(true);
    expect(motionOff(page('?nomotion=false'))).toBe(false);
    expect(motionOff(page(''))).toBe(false);
  });

  it('keeps an element shown when it is shown again while it is being hidden', async () => {
    reducedMotion(false);
    const el = document.createElement('div');
    const animations: { cancel: () => void; finish: () => void }[] = [];
    el.animate = (() => {
      let settle: (ok: boolean) => void = () => {};
      const finished = new Promise<void>((resolve, reject) => {
        settle = (ok) => (ok ? resolve() : reject(new DOMException('cancelled', 'AbortError')));
      });
      const animation = { finished, cancel: () => settle(false), finish: () => settle(true) };
      animations.push(animation);
      return animation as unknown as Animation;
    }) as typeof el.animate;
    const hiding = hide(el, 'fade');
    const showing = show(el, 'fade');
    animations[1]!.finish();
    await Promise.all([hiding, showing]);
    expect(el.hidden).toBe(false);
    expect(animations).toHaveLength(2);
  });

  it('leaves an element already in the asked state alone', async () => {
    reducedMotion(false);
    const { el, calls } = animated();
    await show(el, 'fade');
    el.hidden = true;
    await hide(el, 'fade');
    expect(calls).toEqual([]);
  });
});
