import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from './index';
import { Slides } from './slides';
import { stripAlignment, stripScrollLeft, thumbnailTarget, thumbnailsPerRow } from './thumbs';

describe('thumbnail strip rules', () => {
  it('maps active-alignment to start, middle or end (middle by default)', () => {
    expect(stripAlignment('left')).toBe('start');
    expect(stripAlignment('center')).toBe('middle');
    expect(stripAlignment('right')).toBe('end');
    expect(stripAlignment('end')).toBe('end');
    expect(stripAlignment(undefined)).toBe('middle');
    expect(stripAlignment(7)).toBe('middle');
  });

  it('makes a clicked thumbnail current, and follows the active click behaviour on the current one', () => {
    expect(thumbnailTarget(0, 3, 5)).toBe(3);
    expect(thumbnailTarget(2, 2, 5)).toBe(3);
    expect(thumbnailTarget(2, 2, 5, 'previous')).toBe(1);
    expect(thumbnailTarget(2, 2, 5, 'none')).toBeNull();
    expect(thumbnailTarget(0, 5, 5)).toBeNull();
    expect(thumbnailTarget(0, 0, 0)).toBeNull();
  });

  it('shows 5 thumbnails per row unless told, never more than the slides', () => {
    expect(thumbnailsPerRow(undefined, 9)).toBe(5);
    expect(thumbnailsPerRow(4, 9)).toBe(4);
    expect(thumbnailsPerRow('x', 9)).toBe(5);
    expect(thumbnailsPerRow(0, 9)).toBe(5);
    expect(thumbnailsPerRow(8, 3)).toBe(3);
  });

  it('scrolls the current thumbnail to the alignment within the strip', () => {
    const strip = { width: 500, scrollWidth: 1000 };
    expect(stripScrollLeft({ left: 500, width: 100 }, strip, 'middle')).toBe(300);
    expect(stripScrollLeft({ left: 500, width: 100 }, strip, 'start')).toBe(500);
    expect(stripScrollLeft({ left: 500, width: 100 }, strip, 'end')).toBe(100);
    expect(stripScrollLeft({ left: 0, width: 100 }, strip, 'middle')).toBe(0);
    expect(stripScrollLeft({ left: 900, width: 100 }, strip, 'middle')).toBe(500);
  });
});

function gallery(count: number): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = `<ul class="gallery">${Array.from({ length: count }, (_, i) => `<li><figure><a href="/images/${i}.png"><img src="/images/${i}.png?format=750w" data-src="/images/${i}.png" alt="Photo ${i}"></a></figure></li>`).join('')}</ul>`;
  document.body.append(el);
  return el;
}

const status = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
const thumbs = (el: HTMLElement) => Array.from(el.querySelectorAll<HTMLButtonElement>('.gallery-thumb'));
const currentThumb = (el: HTMLElement) => thumbs(el).findIndex((b) => b.getAttribute('aria-current') === 'true');
const currentSlide = (el: HTMLElement) => Array.from(el.querySelectorAll('ul.gallery > li')).findIndex((li) => li.classList.contains('is-current'));

describe('the slideshow with a thumbnail strip', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    window.history.replaceState(null, '', '/gallery-designs');
  });
  afterEach(() => {
    vi.useRealTimers();
    document.body.replaceChildren();
  });

  it('builds one labelled thumbnail per slide from the slide images', () => {
    const el = gallery(4);
    mount(el, { design: 'slideshow', thumbnails: true, 'thumbnails-per-row': 3 });
    expect(thumbs(el)).toHaveLength(4);
    expect(thumbs(el)[1]?.getAttribute('aria-label')).toBe('Show slide 2 of 4');
    expect(thumbs(el)[1]?.querySelector('img')?.getAttribute('src')).toMatch(/^\/images\/1\.png\?format=\d+w$/);
    expect(thumbs(el)[1]?.querySelector('img')?.getAttribute('alt')).toBe('');
    expect(el.querySelector<HTMLElement>('.gallery-thumbs')?.style.getPropertyValue('--thumbs-per-row')).toBe('3');
    expect(currentThumb(el)).toBe(0);
    expect(el.querySelectorAll('ul.gallery')).toHaveLength(1);
  });

  it('has no strip unless asked, nor for a single slide', () => {
    const plain = gallery(3);
    mount(plain, { design: 'slideshow' });
    expect(thumbs(plain)).toHaveLength(0);
    const single = gallery(1);
    mount(single, { design: 'slideshow', thumbnails: true });
    expect(thumbs(single)).toHaveLength(0);
  });

  it('keeps the slideshow and the strip on the same slide both ways', () => {
    const el = gallery(5);
    mount(el, { design: 'slideshow', thumbnails: true });
    thumbs(el)[3]?.click();
    expect(currentSlide(el)).toBe(3);
    expect(currentThumb(el)).toBe(3);
    expect(status(el)).toBe('4 of 5');
    vi.advanceTimersByTime(1200);
    el.querySelector<HTMLButtonElement>('.gallery-next')?.click();
    expect(currentSlide(el)).toBe(4);
    expect(currentThumb(el)).toBe(4);
    vi.advanceTimersByTime(1200);
    thumbs(el)[4]?.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', keyCode: 39, bubbles: true }));
    expect(currentSlide(el)).toBe(0);
    expect(currentThumb(el)).toBe(0);
  });

  it('moves on when the current thumbnail is clicked', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', thumbnails: true });
    thumbs(el)[0]?.click();
    expect(currentThumb(el)).toBe(1);
    expect(currentSlide(el)).toBe(1);
  });

  it('refuses a thumbnail while the slideshow is still moving elsewhere', () => {
    const el = gallery(5);
    mount(el, { design: 'slideshow', thumbnails: true });
    thumbs(el)[2]?.click();
    vi.advanceTimersByTime(600); // the strip has settled (0.5 s), the fade has not (1.2 s)
    thumbs(el)[4]?.click();
    expect(currentSlide(el)).toBe(2);
    expect(currentThumb(el)).toBe(2);
    vi.advanceTimersByTime(600);
    thumbs(el)[4]?.click();
    expect(currentSlide(el)).toBe(4);
  });

  it('follows autoplay, and stays put with nomotion=true', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow', thumbnails: true, autoplay: true });
    vi.advanceTimersByTime(5000);
    expect(currentThumb(el)).toBe(1);
    document.body.replaceChildren();
    window.history.replaceState(null, '', '/gallery-designs?nomotion=true');
    const still = gallery(3);
    mount(still, { design: 'slideshow', thumbnails: true, autoplay: true, transition: 'ken-burns' });
    vi.advanceTimersByTime(20_000);
    expect(currentThumb(still)).toBe(0);
    expect(still.classList.contains('gallery-viewer--t-kenburns')).toBe(false);
  });

  it('links two galleries directly as well', () => {
    const a = new Slides(4);
    const b = new Slides(4);
    a.link(b);
    b.go(2);
    expect(a.index).toBe(2);
  });
});
