import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../gallery/index';
import { type Lightbox, openLightbox } from './lightbox';
import { watchLightbox } from './trigger';
import { videoSize } from './video';

const PLAYER = 'https://www.youtube-nocookie.com/embed/abc';
const items = [
  { src: '/images/a.png', alt: 'Photo a', caption: 'a' },
  { src: '/images/kitchen.png', alt: 'The kitchen', caption: 'kitchen', video: { src: PLAYER, title: 'The kitchen at dawn' } },
  { src: '/images/c.png', alt: 'Photo c', caption: 'c' },
];

let open: Lightbox | undefined;
/** The width every lightbox item reports (jsdom lays nothing out). */
let itemWidth = 0;

/** Makes the window `width` × `height` px. */
function windowSize(width: number, height: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: height });
}

beforeEach(() => {
  vi.useFakeTimers();
  windowSize(1000, 1000);
  window.history.replaceState(null, '', '/gallery');
  itemWidth = 0;
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.classList.contains('lightbox-item') ? itemWidth : 0;
  });
});

afterEach(() => {
  open?.close();
  vi.runAllTimers();
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.replaceChildren();
  open = undefined;
});

const frame = () => document.querySelector<HTMLIFrameElement>('.lightbox iframe');

describe('lightbox video items (001 §3 videoLoaderOptions, §9)', () => {
  it('load their player once the item is laid out, trying every 10 ms', () => {
    open = openLightbox(window, { set: items, currentSetIndex: 1 });
    expect(frame()).toBeNull();
    vi.advanceTimersByTime(10 * 49);
    expect(frame()).toBeNull();
    itemWidth = 800;
    vi.advanceTimersByTime(10);
    const player = frame()!;
    expect(player.title).toBe('The kitchen at dawn');
    expect(player.src).toContain('autoplay=1');
    expect(document.querySelector<HTMLImageElement>('.lightbox-item--video img')!.hidden).toBe(true);
    // 92 % of the window's width, 56.3 % of that high (the video block's ratio), when that fits in 80 % of its height.
    expect([player.width, player.height]).toEqual(['920', '518']);
  });

  it('give up after 100 tries with the spec error, leaving the poster', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    open = openLightbox(window, { set: items, currentSetIndex: 1 });
    vi.advanceTimersByTime(10 * 98);
    expect(error).not.toHaveBeenCalled();
    vi.advanceTimersByTime(10);
    expect(error).toHaveBeenCalledWith('VideoLoader not found');
    itemWidth = 800;
    vi.advanceTimersByTime(1000);
    expect(frame()).toBeNull();
    expect(document.querySelector<HTMLImageElement>('.lightbox-item--video img')!.hidden).toBe(false);
  });

  it('size the player again 1000 ms after the last resize, and stop it when the item is left', () => {
    itemWidth = 800;
    open = openLightbox(window, { set: items, currentSetIndex: 1, videoLoaderOptions: { autoplay: false } });
    const player = frame()!;
    expect(player.src).toBe(PLAYER);
    windowSize(500, 1000);
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(500);
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(999);
    expect(player.width).toBe('920');
    vi.advanceTimersByTime(1);
    expect([player.width, player.height]).toEqual(['460', '259']);
    // A low window: 80 % of its height bounds the player.
    windowSize(1000, 400);
    window.dispatchEvent(new Event('resize'));
    vi.advanceTimersByTime(1000);
    expect([player.width, player.height]).toEqual(['568', '320']);
    open.next();
    expect(frame()).toBeNull();
    open.previous();
    expect(frame()).not.toBeNull();
  });

  it('fit the window', () => {
    expect(videoSize(1000, 300)).toEqual({ width: 533, height: 300 });
    expect(videoSize(1000, 300, 100)).toEqual({ width: 300, height: 300 });
  });

  it('come from a gallery video slide, its poster the item image', () => {
    document.body.innerHTML = `<div><ul class="gallery gallery--grid" data-lightbox-set>
      <li data-type="image"><figure><a href="/images/a.png" data-lightbox><img alt="Photo a"></a></figure></li>
      <li data-type="video"><figure><a href="${PLAYER}"><img data-src="/images/kitchen.png" alt="The kitchen"></a>
        <template class="gallery-video-embed"><iframe src="${PLAYER}" title="The kitchen at dawn"></iframe></template></figure></li>
    </ul></div>`;
    mount(document.querySelector('div')!, { design: 'grid' });
    watchLightbox(window);
    itemWidth = 800;
    document.querySelector<HTMLAnchorElement>('li[data-type="video"] a')!.click();
    return vi.waitFor(() => {
      expect(frame()?.title).toBe('The kitchen at dawn');
      expect(document.querySelector('.lightbox [aria-live]')?.textContent).toBe('2 of 2');
      expect(document.querySelector<HTMLImageElement>('.lightbox-item--video img')!.getAttribute('src')).toContain('/images/kitchen.png');
    });
  });
});

describe('lightbox options (001 §3)', () => {
  it('slide at the given speed', () => {
    open = openLightbox(window, { set: items, currentSetIndex: 0, speed: 1.5 });
    expect(open.root.style.getPropertyValue('--lightbox-slide')).toBe('1500ms');
    open.next();
    const entering = document.querySelector('.lightbox-item.is-entering-next');
    expect(entering).not.toBeNull();
    vi.advanceTimersByTime(1499);
    expect(entering!.classList.contains('is-entering-next')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(entering!.classList.contains('is-entering-next')).toBe(false);
  });

  it('show the previous and next controls the caller asks for', () => {
    open = openLightbox(window, { set: items, currentSetIndex: 0, controls: { previous: false } });
    expect(document.querySelector('.lightbox-previous')).toBeNull();
    expect(document.querySelector('.lightbox-next')).not.toBeNull();
    open.close();
    vi.runAllTimers();
    open = openLightbox(window, { set: items, currentSetIndex: 0 });
    expect(document.querySelectorAll('.lightbox-previous, .lightbox-next')).toHaveLength(2);
  });
});
