import { describe, expect, it, vi } from 'vitest';
import { parseGalleryData, placeholderPercent } from './data';
import { mount } from './index';
import { randomSlide } from './motion';
import { useGalleryTestPage } from './test-page';

/** A gallery of `count` slides; the first `sized` give their image size, slide `video` is a video. */
function gallery(count: number, sized = 0, video = -1): HTMLElement {
  const el = document.createElement('div');
  const slide = (i: number) => {
    const size = i < sized ? ' width="640" height="480"' : '';
    const type = i === video ? 'video' : 'image';
    const dims = i < sized ? ' data-image-dimensions="640x480"' : '';
    return `<li data-type="${type}"${dims}><figure><a href="/images/${i}.png"><img src="/images/${i}.png?format=750w" data-src="/images/${i}.png" alt="Photo ${i}"${size}></a></figure></li>`;
  };
  el.innerHTML = `<ul class="gallery">${Array.from({ length: count }, (_, i) => slide(i)).join('')}</ul>`;
  document.body.append(el);
  return el;
}

const list = (el: HTMLElement) => el.querySelector<HTMLElement>('ul.gallery')!;
const thumbs = (el: HTMLElement) => Array.from(el.querySelectorAll<HTMLButtonElement>('.gallery-thumb'));
const currentSlide = (el: HTMLElement) => Array.from(list(el).children).findIndex((li) => li.classList.contains('is-current'));

describe('gallery block data (001 §3)', () => {
  useGalleryTestPage('/gallery-designs');

  it('sets the placeholder 65 high for Auto, otherwise 100 divided by the ratio (001 §9)', () => {
    expect(placeholderPercent('Auto')).toBe(65);
    expect(placeholderPercent(undefined)).toBe(65);
    expect(placeholderPercent('wide')).toBe(65);
    expect(placeholderPercent('2')).toBe(50);
    expect(placeholderPercent(4)).toBe(25);
    expect(placeholderPercent('1.5')).toBeCloseTo(66.667, 3);
    const options = parseGalleryData({ design: 'slideshow' })!;
    expect(options).toMatchObject({ squareThumbs: true, autoCrop: false, randomize: false, stripHeight: null, stripMargin: null });
    expect(options.placeholder).toBe(65);
  });

  it('is the base design when no design is given', () => {
    expect(parseGalleryData({})!.layout).toBe('base');
  });

  it('logs a field of the wrong type and keeps its default', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const options = parseGalleryData({ design: 'slideshow', 'square-thumbs': 'no', 'auto-crop': 1, 'thumbnail-strip-height': '80' })!;
    expect(error).toHaveBeenCalledWith('Error evaluating gallery block data');
    expect(options).toMatchObject({ squareThumbs: true, autoCrop: false, stripHeight: null });
  });

  it('keeps a 65 % placeholder on images of unknown size in a moving gallery', () => {
    const el = gallery(3, 1);
    mount(el, { design: 'carousel' });
    expect(list(el).style.getPropertyValue('--gallery-ratio')).toBe('100 / 65');
    const placeholders = Array.from(list(el).querySelectorAll('img'), (img) => img.classList.contains('gallery-placeholder'));
    expect(placeholders).toEqual([false, true, true]);
    expect(el.classList.contains('gallery-viewer--framed')).toBe(false);
  });

  it('gives a slider a placeholder 50 high unless a ratio is set (000 §9 default slider aspect ratio 50)', () => {
    for (const data of [{ design: 'slider' }, { design: 'slider', imageAspectRatio: 'Auto' }]) {
      const el = gallery(3, 1);
      mount(el, data);
      expect(list(el).style.getPropertyValue('--gallery-ratio')).toBe('100 / 50');
      const placeholders = Array.from(list(el).querySelectorAll('img'), (img) => img.classList.contains('gallery-placeholder'));
      expect(placeholders).toEqual([false, true, true]);
      document.body.replaceChildren();
    }
    expect(parseGalleryData({ design: 'slider', imageAspectRatio: '4' })!.placeholder).toBe(25);
    // Other moving designs keep the 65 of 001 §9.
    expect(parseGalleryData({ design: 'carousel' })!.placeholder).toBe(65);
  });

  it('crops a slideshow to the placeholder frame with auto-crop, and shows images whole in a ratio frame without', () => {
    const cropped = gallery(3);
    mount(cropped, { design: 'slideshow', 'auto-crop': true });
    expect(cropped.classList.contains('gallery-viewer--framed')).toBe(true);
    expect(cropped.classList.contains('gallery-viewer--contain')).toBe(false);
    expect(list(cropped).style.getPropertyValue('--gallery-ratio')).toBe('100 / 65');
    const whole = gallery(3);
    mount(whole, { design: 'slideshow', imageAspectRatio: '2' });
    expect(whole.classList.contains('gallery-viewer--framed')).toBe(true);
    expect(whole.classList.contains('gallery-viewer--contain')).toBe(true);
    expect(list(whole).style.getPropertyValue('--gallery-ratio')).toBe('100 / 50');
  });

  it('lays a slideshow’s current slide over the others at the base z-index 888', () => {
    const el = gallery(3);
    mount(el, { design: 'slideshow' });
    const z = () => Array.from(list(el).children as HTMLCollectionOf<HTMLElement>, (li) => li.style.zIndex);
    expect(z()).toEqual(['888', '', '']);
    el.querySelector<HTMLButtonElement>('.gallery-next')?.click();
    expect(z()).toEqual(['', '888', '']);
  });

  it('gives the thumbnail strip its height, margin and, when not square, each slide’s proportions', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // the video slide has no player here
    const el = gallery(3, 2, 2);
    mount(el, { design: 'slideshow', thumbnails: true, 'square-thumbs': false, 'thumbnail-strip-height': 80, 'thumbnail-strip-margin': 12 });
    const strip = el.querySelector<HTMLElement>('.gallery-thumbs')!;
    expect(strip.classList.contains('gallery-thumbs--fixed')).toBe(true);
    expect(strip.style.getPropertyValue('--thumb-height')).toBe('80px');
    expect(strip.style.marginTop).toBe('12px');
    // 001 §9: thumbnail video ratio 16:9.
    expect(thumbs(el).map((b) => b.style.getPropertyValue('--thumb-ratio'))).toEqual(['640 / 480', '640 / 480', '16 / 9']);
    const square = gallery(3);
    mount(square, { design: 'slideshow', thumbnails: true });
    expect(thumbs(square).map((b) => b.style.getPropertyValue('--thumb-ratio'))).toEqual(['', '', '']);
    expect(square.querySelector('.gallery-thumbs--fixed')).toBeNull();
  });
});

describe('random autoplay (001 §3 autoplayOptions.randomize)', () => {
  useGalleryTestPage('/gallery-designs');

  it('picks any slide but the current one, each as likely', () => {
    const picks = [0, 0.25, 0.5, 0.75, 0.999].map((r) => randomSlide(2, 5, () => r));
    expect(picks).toEqual([0, 1, 3, 4, 4]);
    expect(randomSlide(0, 5, () => 0)).toBe(1);
    expect(randomSlide(4, 5, () => 0.999)).toBe(3);
    expect(randomSlide(0, 1, () => 0.5)).toBe(0);
  });

  it('moves a slideshow to a random other slide every autoplay interval', () => {
    const random = vi.spyOn(Math, 'random').mockReturnValueOnce(0.9).mockReturnValueOnce(0);
    const el = gallery(5);
    mount(el, { design: 'slideshow', autoplay: true, 'autoplay-randomize': true });
    vi.advanceTimersByTime(5000);
    expect(currentSlide(el)).toBe(4);
    vi.advanceTimersByTime(5000);
    expect(currentSlide(el)).toBe(0);
    expect(random).toHaveBeenCalledTimes(2);
    const plain = gallery(5);
    mount(plain, { design: 'slideshow', autoplay: true });
    vi.advanceTimersByTime(5000);
    expect(currentSlide(plain)).toBe(1);
  });
});
