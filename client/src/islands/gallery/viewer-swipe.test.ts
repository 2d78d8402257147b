// Tests of a newSwipe slideshow's boundaries and snap points (001 §5) in the viewer: drags
// past the first and last slide, swipes there, and where released drags settle.
import { describe, expect, it, vi } from 'vitest';
import { num } from '../../spec-pins/fixtures';
import { mount } from './index';
import { useGalleryTestPage } from './test-page';

useGalleryTestPage('/gallery-designs');

/** A newSwipe slideshow of three slides, 400 px wide, with `extra` block data. */
function slideshow(extra: Record<string, unknown> = {}) {
  const el = document.createElement('div');
  el.innerHTML = `<ul class="gallery">${[0, 1, 2].map((i) => `<li><figure><img alt="Photo ${i}"></figure></li>`).join('')}</ul>`;
  document.body.append(el);
  mount(el, { design: 'slideshow', transition: 'newSwipe', ...extra });
  const list = el.querySelector<HTMLElement>('ul.gallery')!;
  Object.defineProperty(list, 'clientWidth', { value: 400 });
  const slide = (i: number) => list.querySelectorAll<HTMLElement>(':scope > li')[i]!;
  const pointer = (type: string, x: number, t: number) => {
    const e = new MouseEvent(type, { clientX: x, clientY: 10, bubbles: true });
    Object.defineProperty(e, 'timeStamp', { value: t });
    list.dispatchEvent(e);
  };
  /** A drag from x 200 by `dx` px over `ms`, moving halfway and to its end. */
  const drag = (dx: number, ms: number, at = 0) => {
    pointer('pointerdown', 200, at);
    pointer('pointermove', 200 + dx / 2, at + ms / 2);
    pointer('pointermove', 200 + dx, at + ms);
    pointer('pointerup', 200 + dx, at + ms);
  };
  const status = () => el.querySelector('[aria-live="polite"]')?.textContent;
  const toLast = () => {
    for (const _ of [1, 2]) {
      el.querySelector<HTMLButtonElement>('.gallery-next')!.click();
      vi.advanceTimersByTime(500);
    }
  };
  return { el, slide, pointer, drag, status, toLast };
}

const quick = num('gallery.swipeWithinMs') - 50;
const slow = num('gallery.swipeWithinMs') + 250;
const far = num('gallery.swipeDistancePx') + 50;

describe('newSwipe boundaries', () => {
  it('wrap by default: a swipe past the last slide goes on to the first', () => {
    const { drag, status, toLast } = slideshow();
    toLast();
    drag(-far, quick);
    expect(status()).toBe('1 of 3');
  });

  it('stop the slide at a hard end and keep a swipe there from wrapping', () => {
    const { slide, pointer, drag, status, toLast } = slideshow({ boundaries: { start: 'none', end: 'hard' } });
    toLast();
    pointer('pointerdown', 200, 0);
    pointer('pointermove', 120, 50);
    expect(slide(2).style.transform).toBe('translateX(0px)');
    pointer('pointerup', 120, 60);
    expect(status()).toBe('3 of 3');
    drag(-far, quick, 1000);
    expect(status()).toBe('3 of 3');
    drag(far, quick, 2000);
    expect(status()).toBe('2 of 3');
  });

  it('slow the slide at an inertial end and spring it back on release', () => {
    const { slide, pointer, drag, status } = slideshow({ boundaries: { start: 'inertial' } });
    pointer('pointerdown', 200, 0);
    pointer('pointermove', 300, 50);
    const moved = Number(/translateX\((.+)px\)/.exec(slide(0).style.transform)?.[1]);
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(100);
    pointer('pointerup', 300, 60);
    expect(slide(0).style.transform).toBe('');
    expect(status()).toBe('1 of 3');
    drag(-far, quick, 1000);
    expect(status()).toBe('2 of 3');
  });

  it('skip invalid boundaries with a warning and keep wrapping', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { drag, status } = slideshow({ boundaries: { start: 'bouncy' } });
    expect(warn).toHaveBeenCalled();
    drag(far, quick);
    expect(status()).toBe('3 of 3');
  });

  it('hold swipes with reduced motion, where the slide does not follow the finger', () => {
    vi.stubGlobal('matchMedia', (q: string) => ({ matches: q.includes('reduce') }));
    const { slide, pointer, drag, status } = slideshow({ boundaries: { start: 'hard', end: 'hard' } });
    pointer('pointerdown', 200, 0);
    pointer('pointermove', 300, 50);
    expect(slide(0).style.transform).toBe('');
    pointer('pointerup', 300, 60);
    drag(far, quick, 1000);
    expect(status()).toBe('1 of 3');
    drag(-far, quick, 2000);
    expect(status()).toBe('2 of 3');
  });
});

describe('newSwipe snap points', () => {
  it('settle a slow drag at the nearest snap point, and a swipe still changes slide', () => {
    const { slide, drag, status } = slideshow({ snapPoints: ['0%', '50%'] });
    drag(-120, slow); // 30 % of the slide: nearer 50 % than 0 %
    expect(slide(0).style.transform).toBe('translateX(-200px)');
    expect(status()).toBe('1 of 3');
    drag(180, slow, 1000); // from -200 px back to -20 px: 5 %, nearer 0 %
    expect(slide(0).style.transform).toBe('');
    drag(-far, quick, 2000);
    expect(status()).toBe('2 of 3');
    expect(slide(1).style.transform).toBe('');
  });

  it('are none by default: a slow drag goes back to its place', () => {
    const { slide, drag } = slideshow();
    drag(-180, slow);
    expect(slide(0).style.transform).toBe('');
  });

  it('skip snap points that do not end with % with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { slide, drag } = slideshow({ snapPoints: ['50'] });
    expect(warn).toHaveBeenCalled();
    drag(-180, slow);
    expect(slide(0).style.transform).toBe('');
  });
});
