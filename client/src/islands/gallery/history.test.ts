import { describe, expect, it, vi } from 'vitest';
import { galleryHistory, historyEnabled, inEditor, linkedIndex, pagePath, slideAddress, slideKey } from './history';
import { mount } from './index';
import { Slides } from './slides';
import { useGalleryTestPage } from './test-page';

function list(keys: string[], linked?: string): HTMLElement {
  const ul = document.createElement('ul');
  ul.className = 'gallery';
  if (linked) ul.setAttribute('data-linked-slide', linked);
  ul.innerHTML = keys.map((k, i) => `<li data-slide-id="${k}"><figure><img alt="Photo ${i}"></figure></li>`).join('');
  const el = document.createElement('div');
  el.append(ul);
  document.body.append(el);
  return ul;
}

useGalleryTestPage('/gallery-designs');

describe('gallery history addresses', () => {
  it('names a slide by its slide url, else its slide id, when that is one plain path segment', () => {
    const li = document.createElement('li');
    li.setAttribute('data-slide-id', 'sunset');
    expect(slideKey(li)).toBe('sunset');
    li.setAttribute('data-slide-url', 'the-sunset');
    expect(slideKey(li)).toBe('the-sunset');
    li.setAttribute('data-slide-url', 'a/b');
    expect(slideKey(li)).toBeNull();
    expect(slideKey(document.createElement('li'))).toBeNull();
  });

  it('writes the page path, a slash and the key, keeping the query and hash but itemId', () => {
    expect(slideAddress('/photos', 'sunset', '', '')).toBe('/photos/sunset');
    expect(slideAddress('/', 'sunset', '', '')).toBe('/sunset');
    expect(slideAddress('/photos', 'sunset', '?itemId=porch&nomotion=true', '#top')).toBe('/photos/sunset?nomotion=true#top');
    expect(slideAddress('/photos', null, '?itemId=porch', '')).toBe('/photos');
  });

  it('finds the page path under a deep link, and the slide the address names', () => {
    expect(pagePath('/photos/sunset', 'sunset')).toBe('/photos');
    expect(pagePath('/photos/sunset/', 'sunset')).toBe('/photos');
    expect(pagePath('/sunset', 'sunset')).toBe('/');
    expect(pagePath('/photos/', null)).toBe('/photos');
    expect(pagePath('/', null)).toBe('/');
    expect(linkedIndex(['a', null, 'c'], 'c', '')).toBe(2);
    expect(linkedIndex(['a', null, 'c'], null, '?itemId=a')).toBe(0);
    expect(linkedIndex(['a', null, 'c'], null, '?itemId=z')).toBe(-1);
    expect(linkedIndex(['a'], null, '')).toBe(-1);
  });

  it('is on only when the block says so, and never in the editing frame', () => {
    expect(historyEnabled({ historyEnabled: true })).toBe(true);
    expect(historyEnabled({ historyEnabled: 'true' })).toBe(false);
    expect(historyEnabled(null)).toBe(false);
    expect(inEditor(window)).toBe(false);
    const framed = { get top(): Window { throw new Error('cross-origin'); }, self: window } as unknown as Window;
    expect(inEditor(framed)).toBe(true);
    expect(galleryHistory(framed, list(['a']))).toBeNull();
  });
});

describe('gallery history in the address', () => {
  it('replaces the address as the slide changes, so the back button leaves the page', () => {
    const push = vi.spyOn(window.history, 'pushState');
    const length = window.history.length;
    const history = galleryHistory(window, list(['one', 'two', 'three']))!;
    expect(history.start).toBe(0);
    const slides = new Slides(3, true, history.start);
    history.follow(slides);
    slides.go(2);
    expect(window.location.pathname).toBe('/gallery-designs/three');
    expect(window.history.state).toEqual({ itemId: 'three' });
    slides.settle();
    slides.go(0);
    expect(window.location.pathname).toBe('/gallery-designs/one');
    expect(push).not.toHaveBeenCalled();
    expect(window.history.length).toBe(length);
  });

  it('starts on the slide the server linked, and writes the next one under the page path', () => {
    window.history.replaceState(null, '', '/gallery-designs/two');
    const history = galleryHistory(window, list(['one', 'two', 'three'], 'two'))!;
    expect(history.start).toBe(1);
    const slides = new Slides(3, true, history.start);
    history.follow(slides);
    slides.next();
    expect(window.location.pathname).toBe('/gallery-designs/three');
  });

  it('opens a slider on its linked slide, scrolled to it', () => {
    window.history.replaceState(null, '', '/gallery-designs/two');
    const ul = list(['one', 'two', 'three'], 'two');
    const scrollTo = vi.fn();
    ul.scrollTo = scrollTo;
    mount(ul.parentElement!, { design: 'slider', historyEnabled: true });
    expect(ul.children[1]!.classList.contains('is-current')).toBe(true);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('starts on the slide an itemId names', () => {
    window.history.replaceState(null, '', '/gallery-designs?itemId=three');
    expect(galleryHistory(window, list(['one', 'two', 'three']))!.start).toBe(2);
  });

  it('moves a mounted slideshow with history on the address, and one without leaves it alone', () => {
    const ul = list(['one', 'two', 'three'], 'two');
    window.history.replaceState(null, '', '/gallery-designs/two');
    const el = ul.parentElement!;
    mount(el, { design: 'slideshow', historyEnabled: true });
    expect(el.querySelector('[aria-live="polite"]')?.textContent).toBe('2 of 3');
    el.querySelector<HTMLButtonElement>('.gallery-next')!.click();
    expect(window.location.pathname).toBe('/gallery-designs/three');

    window.history.replaceState(null, '', '/gallery-designs');
    const plain = list(['a', 'b']).parentElement!;
    mount(plain, { design: 'slideshow' });
    plain.querySelector<HTMLButtonElement>('.gallery-next')!.click();
    expect(window.location.pathname).toBe('/gallery-designs');
  });
});
