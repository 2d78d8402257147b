// 001 §4: Instagram-hosted videos open in a 620×720 popup window; in the configuration
// area's preview frame a click-through slide posts a message to that frame instead of
// navigating.
import { describe, expect, it, vi } from 'vitest';
import { CLICK_THROUGH_MESSAGE, inPreviewFrame, instagramHosted, watchSlideLinks } from './click-through';
import { mount } from './index';
import { useGalleryTestPage } from './test-page';

const INSTAGRAM = 'https://www.instagram.com/reel/C0ffee/embed';

/** A gallery (as the server renders it) whose second slide is an Instagram video. */
function gallery(design: 'slideshow' | 'grid', lightbox = false): HTMLElement {
  const el = document.createElement('div');
  const image = (i: number) =>
    `<li data-type="image"><figure><a href="/images/${i}.png"${lightbox ? ' data-lightbox' : ''}><img alt="Photo ${i}"></a></figure></li>`;
  const template = `<template class="gallery-video-embed"><iframe src="${INSTAGRAM}" title="Porch reel"></iframe></template>`;
  el.innerHTML = `<ul class="gallery gallery--${design}"${lightbox ? ' data-lightbox-set' : ''}>${image(0)}<li data-type="video"><figure><a href="${INSTAGRAM}"><img alt="Porch reel"></a>${template}</figure></li>${image(2)}</ul>`;
  document.body.append(el);
  return el;
}

/** Clicks `target` and says whether its default action (following the link) was prevented. */
function click(target: Element): boolean {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}

useGalleryTestPage('/gallery-designs');

describe('Instagram-hosted videos', () => {
  it('open in a 620×720 popup window from the play control, not in the slide', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const el = gallery('slideshow');
    mount(el, { design: 'slideshow' });
    el.querySelector<HTMLButtonElement>('li[data-type="video"] .gallery-video-play')!.click();
    expect(open).toHaveBeenCalledOnce();
    const [url, , features] = open.mock.calls[0]!;
    expect(url).toBe(INSTAGRAM);
    expect(features).toContain('width=620');
    expect(features).toContain('height=720');
    expect(el.querySelector('li[data-type="video"] iframe')).toBeNull();
  });

  it('open in the popup from a gallery that follows its links, instead of the lightbox', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const el = gallery('grid', true);
    mount(el, { design: 'grid', lightbox: true });
    expect(click(el.querySelector('li[data-type="video"] img')!)).toBe(true);
    expect(open.mock.calls.map(([url, , features]) => [url, features])).toEqual([[INSTAGRAM, 'popup,noopener,width=620,height=720']]);
    // Another slide's link is left to the lightbox (not prevented here).
    open.mockClear();
    const other = el.querySelectorAll('li')[0]!.querySelector('a')!;
    other.addEventListener('click', (e) => e.preventDefault());
    click(other);
    expect(open).not.toHaveBeenCalled();
  });

  it('are told by their host', () => {
    const base = 'https://porch.example/';
    expect(instagramHosted('https://www.instagram.com/p/x/', base)).toBe(true);
    expect(instagramHosted('https://instagram.com/tv/x', base)).toBe(true);
    expect(instagramHosted('https://instagr.am/p/x', base)).toBe(true);
    expect(instagramHosted('https://player.vimeo.com/video/1', base)).toBe(false);
    expect(instagramHosted('https://notinstagram.com/p/x', base)).toBe(false);
    expect(instagramHosted('/images/instagram.com.png', base)).toBe(false);
    expect(instagramHosted('javascript:alert(1)//instagram.com', base)).toBe(false);
  });
});

/** A page framed by `parent` (a same-site page at `parentPath`, or a foreign one). */
function framedPage(parentPath: string | null) {
  const postMessage = vi.fn();
  const parent = {
    postMessage,
    get location() {
      if (parentPath === null) throw new DOMException('Blocked a frame', 'SecurityError');
      return { origin: 'https://porch.example', pathname: parentPath };
    },
  };
  const win = { location: { href: 'https://porch.example/gallery-designs', origin: 'https://porch.example' }, parent, open: vi.fn() };
  return { win: win as unknown as Window, postMessage };
}

function throughGallery(): HTMLUListElement {
  const list = document.createElement('ul');
  list.innerHTML = '<li data-type="image" data-click-through-url="/menu"><figure><a href="/menu"><img alt="Menu"></a></figure></li><li data-type="image"><figure><a href="/images/1.png"><img alt="Photo"></a></figure></li>';
  document.body.append(list);
  return list;
}

describe('a click-through slide in the preview frame', () => {
  it('posts its url to the configuration area instead of navigating', () => {
    const { win, postMessage } = framedPage('/config/');
    const list = throughGallery();
    watchSlideLinks(win, list);
    expect(click(list.querySelector('img[alt="Menu"]')!)).toBe(true);
    expect(postMessage.mock.calls).toEqual([[{ type: CLICK_THROUGH_MESSAGE, url: 'https://porch.example/menu' }, 'https://porch.example']]);
    // A slide without a click-through keeps its own link.
    expect(click(list.querySelector('img[alt="Photo"]')!)).toBe(false);
    expect(postMessage).toHaveBeenCalledOnce();
  });

  it('navigates as usual outside the configuration area, framed by another site, or unframed', () => {
    for (const win of [framedPage('/blog').win, framedPage(null).win]) {
      const list = throughGallery();
      watchSlideLinks(win, list);
      expect(click(list.querySelector('img[alt="Menu"]')!)).toBe(false);
    }
    expect(inPreviewFrame(window)).toBe(false);
  });
});
