import { describe, expect, it, vi } from 'vitest';
import { clickThrough, dueSlides, slideshowClick, stripClick } from './clicks';
import { mount } from './index';
import { useGalleryTestPage } from './test-page';

describe('click rules', () => {
  it('sends a slideshow click next, previous or by the half clicked', () => {
    const box = { left: 100, width: 400 };
    expect(slideshowClick('next', 110, box)).toBe('next');
    expect(slideshowClick('previous', 490, box)).toBe('previous');
    expect(slideshowClick('side', 299, box)).toBe('previous');
    expect(slideshowClick('side', 300, box)).toBe('next');
  });

  it('makes another strip slide current, and the current one follows the active-slide behaviour', () => {
    expect(stripClick(0, 2, 'next')).toEqual({ go: 2 });
    expect(stripClick(2, 2, 'next')).toBe('next');
    expect(stripClick(2, 2, 'previous')).toBe('previous');
    expect(stripClick(2, 2, 'none')).toBe('link');
  });

  it('loads the current slide and the next one', () => {
    expect([...dueSlides(0, 5, 1)]).toEqual([0, 1]);
    expect([...dueSlides(4, 5, 1)]).toEqual([4, 0]);
    expect([...dueSlides(0, 1, 1)]).toEqual([0]);
    expect([...dueSlides(0, 0, 1)]).toEqual([]);
  });

  it('knows a click-through slide', () => {
    const li = document.createElement('li');
    li.setAttribute('data-click-through-url', '/menu');
    li.innerHTML = '<a href="/menu"><img alt=""></a>';
    expect(clickThrough(li.querySelector('img'))).toBe(true);
    expect(clickThrough(document.createElement('img'))).toBe(false);
  });
});

function gallery(count: number, throughAt = -1): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = `<ul class="gallery">${Array.from({ length: count }, (_, i) => (i === throughAt ? `<li data-click-through-url="/menu"><figure><a href="/menu"><img alt="Photo ${i}"></a></figure></li>` : `<li><figure><a href="/images/${i}.png" data-lightbox><img alt="Photo ${i}"></a></figure></li>`)).join('')}</ul>`;
  document.body.append(el);
  const list = el.querySelector('ul')!;
  list.getBoundingClientRect = () => ({ left: 0, width: 400, top: 0, height: 300, right: 400, bottom: 300, x: 0, y: 0, toJSON: () => ({}) });
  return el;
}

const status = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
const slide = (el: HTMLElement, i: number) => el.querySelectorAll<HTMLElement>('ul.gallery > li')[i]!;
function clickAt(target: Element, x: number): MouseEvent {
  const e = new MouseEvent('click', { bubbles: true, cancelable: true, clientX: x });
  target.dispatchEvent(e);
  return e;
}

useGalleryTestPage();

describe('slideshow clicks', () => {
  it('go next by default, instead of the lightbox', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow' });
    expect(clickAt(slide(el, 0).querySelector('img')!, 50).defaultPrevented).toBe(true);
    expect(status(el)).toBe('2 of 3');
  });

  it('go by the side clicked with clickBehavior side, and previous with previous', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', clickBehavior: 'side' });
    clickAt(slide(el, 0).querySelector('img')!, 50);
    expect(status(el)).toBe('3 of 3');
    vi.advanceTimersByTime(1200);
    clickAt(slide(el, 2).querySelector('img')!, 350);
    expect(status(el)).toBe('1 of 3');
    const back = gallery(3);
    mount(back, { design: 'slideshow', clickBehavior: 'previous' });
    clickAt(slide(back, 0).querySelector('img')!, 350);
    expect(status(back)).toBe('3 of 3');
  });

  it('follow a slide click-through url instead', () => {
    const el = gallery(3, 0);
    mount(el, { design: 'slideshow' });
    expect(clickAt(slide(el, 0).querySelector('img')!, 50).defaultPrevented).toBe(false);
    expect(status(el)).toBe('1 of 3');
  });

  it('load only the current and the next slide until they are due', () => {
    const el = gallery(4);
    mount(el, { design: 'slideshow' });
    const deferred = () => Array.from(el.querySelectorAll('li'), (li) => li.classList.contains('gallery-deferred'));
    expect(deferred()).toEqual([false, false, true, true]);
    el.querySelector<HTMLButtonElement>('.gallery-next')!.click();
    expect(deferred()).toEqual([false, false, false, true]);
  });
});

describe('strip clicks', () => {
  it('make another slide current, the current one goes next; Enter and Space activate', () => {
    const el = gallery(4);
    mount(el, { design: 'slider' });
    expect(el.querySelector<HTMLElement>('ul.gallery')!.style.gap).toBe('10px');
    expect(clickAt(slide(el, 2).querySelector('img')!, 0).defaultPrevented).toBe(true);
    expect(status(el)).toBe('3 of 4');
    vi.advanceTimersByTime(500);
    clickAt(slide(el, 2).querySelector('img')!, 0);
    expect(status(el)).toBe('4 of 4');
    vi.advanceTimersByTime(500);
    const link = slide(el, 0).querySelector('a')!;
    const space = new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true });
    link.dispatchEvent(space);
    expect(space.defaultPrevented).toBe(true);
    expect(status(el)).toBe('1 of 4');
  });

  it('leave the current slide to its link with activeSlideClickBehavior none', () => {
    const el = gallery(3);
    mount(el, { design: 'slider', activeSlideClickBehavior: 'none', vSize: 4 });
    expect(el.querySelector<HTMLElement>('ul.gallery')!.style.gap).toBe('4px');
    expect(clickAt(slide(el, 0).querySelector('img')!, 0).defaultPrevented).toBe(false);
    expect(status(el)).toBe('1 of 3');
  });

  it('apply to the current thumbnail of a slideshow too', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', thumbnails: true, activeSlideClickBehavior: 'previous' });
    el.querySelector<HTMLButtonElement>('.gallery-thumb')!.click();
    expect(status(el)).toBe('3 of 3');
  });
});
