import { describe, expect, it, vi } from 'vitest';
import { mount } from './index';
import { VIDEO_LOADER_MISSING } from './video-slides';
import { useGalleryTestPage } from './test-page';

const PLAYER = 'https://player.vimeo.com/video/76979871';

/** A slideshow whose second slide is a video (as the server renders it). */
function gallery(withPlayer = true): HTMLElement {
  const el = document.createElement('div');
  const image = (i: number) => `<li data-type="image"><figure><a href="/images/${i}.png" data-lightbox><img alt="Photo ${i}"></a></figure></li>`;
  const template = withPlayer ? `<template class="gallery-video-embed"><iframe src="${PLAYER}" title="The kitchen at dawn"></iframe></template>` : '';
  el.innerHTML = `<ul class="gallery">${image(0)}<li data-type="video"><figure><a href="${PLAYER}"><img alt="The kitchen at dawn"></a>${template}</figure></li>${image(2)}</ul>`;
  document.body.append(el);
  return el;
}

const status = (el: HTMLElement) => el.querySelector('[aria-live="polite"]')?.textContent;
const next = (el: HTMLElement) => el.querySelector<HTMLButtonElement>('.gallery-next')!.click();

useGalleryTestPage();

describe('video slides', () => {
  it('show no iframe until played; playing stops autoplay, leaving pauses the video and restores it', () => {
    const el = gallery();
    mount(el, { design: 'slideshow', autoplay: true, 'autoplay-duration': 4 });
    const video = el.querySelectorAll('li')[1]!;
    expect(video.querySelector('iframe')).toBeNull();
    vi.advanceTimersByTime(4000);
    expect(status(el)).toBe('2 of 3');
    vi.advanceTimersByTime(1200);

    const play = video.querySelector<HTMLButtonElement>('.gallery-video-play')!;
    expect(play.getAttribute('aria-label')).toBe('Play The kitchen at dawn');
    play.click();
    const frame = video.querySelector('iframe')!;
    expect(frame.src).toBe(`${PLAYER}?autoplay=1`);
    expect(status(el)).toBe('2 of 3');
    vi.advanceTimersByTime(20_000);
    expect(status(el)).toBe('2 of 3'); // autoplay is off while the video shows

    const posted = vi.spyOn(frame.contentWindow!, 'postMessage');
    next(el);
    expect(posted).toHaveBeenCalledWith(JSON.stringify({ method: 'pause' }), 'https://player.vimeo.com');
    expect(status(el)).toBe('3 of 3');
    (document.activeElement as HTMLElement).blur(); // focus in the gallery holds autoplay too
    vi.advanceTimersByTime(4000);
    expect(status(el)).toBe('1 of 3'); // autoplay is back

    vi.advanceTimersByTime(4000);
    expect(status(el)).toBe('2 of 3');
    expect(posted).toHaveBeenLastCalledWith(JSON.stringify({ method: 'play' }), 'https://player.vimeo.com');
    vi.advanceTimersByTime(20_000);
    expect(status(el)).toBe('2 of 3'); // the video shows again: autoplay is off again
  });

  it('is not a slide click: the play control neither moves the slideshow nor follows the link', () => {
    const el = gallery();
    mount(el, { design: 'slideshow' });
    next(el);
    vi.advanceTimersByTime(1200);
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    el.querySelector('.gallery-video-play')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(status(el)).toBe('2 of 3');
    expect(el.querySelector('li[data-type="video"] a')?.hasAttribute('hidden')).toBe(true);
  });

  it('without its player logs the spec error and keeps the poster link', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = gallery(false);
    mount(el, { design: 'slideshow' });
    expect(error).toHaveBeenCalledWith(VIDEO_LOADER_MISSING);
    expect(el.querySelector('.gallery-video-play')).toBeNull();
    expect(status(el)).toBe('1 of 3');
  });
});
