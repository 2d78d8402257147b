import { afterEach, describe, expect, it, vi } from 'vitest';

const openFromLinks = vi.fn();
vi.mock('./lightbox', () => ({ openFromLinks }));

const { watchLightbox } = await import('./trigger');

afterEach(() => {
  document.body.replaceChildren();
  openFromLinks.mockClear();
  window.history.replaceState(null, '', '/');
});

const grid = `<ul data-lightbox-set>
  <li><a id="one" href="/images/a.png" data-lightbox><img alt="A"></a></li>
  <li><a id="two" href="/images/b.png" data-lightbox><img alt="B"></a></li>
  <li><a id="out" href="/menu">Menu</a></li></ul>`;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the lightbox hook', () => {
  it('opens the set at the clicked item, and only on a click', async () => {
    document.body.innerHTML = grid;
    watchLightbox(window);
    await settle();
    expect(openFromLinks).not.toHaveBeenCalled();
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    document.querySelector('#two img')!.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await vi.waitFor(() => expect(openFromLinks).toHaveBeenCalledTimes(1));
    expect(openFromLinks.mock.calls[0]![3]).toBe(1);
  });

  it('leaves other links and modified clicks alone', async () => {
    document.body.innerHTML = grid;
    watchLightbox(window);
    const plain = new MouseEvent('click', { bubbles: true, cancelable: true });
    document.querySelector('#out')!.dispatchEvent(plain);
    const newTab = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    document.querySelector('#one')!.dispatchEvent(newTab);
    await settle();
    expect(plain.defaultPrevented).toBe(false);
    expect(newTab.defaultPrevented).toBe(false);
    expect(openFromLinks).not.toHaveBeenCalled();
  });

  it('opens the item named in the address', async () => {
    window.history.replaceState(null, '', '/gallery#lightbox=2');
    document.body.innerHTML = grid;
    watchLightbox(window);
    await vi.waitFor(() => expect(openFromLinks).toHaveBeenCalledTimes(1));
    expect(openFromLinks.mock.calls[0]![3]).toBe(1);
  });

  it('opens the item of the set the address names, whichever set it is', async () => {
    window.history.replaceState(null, '', '/gallery#lightbox=2-2');
    document.body.innerHTML = grid + grid.replace('id="one"', 'id="three"').replace('id="two"', 'id="four"');
    watchLightbox(window);
    await vi.waitFor(() => expect(openFromLinks).toHaveBeenCalledTimes(1));
    const [, set, links, index] = openFromLinks.mock.calls[0]!;
    expect(set).toBe(document.querySelectorAll('[data-lightbox-set]')[1]);
    expect(links[index].id).toBe('four');
  });

  it('ignores an address naming a set or an item the page lacks', async () => {
    document.body.innerHTML = grid;
    for (const hash of ['#lightbox=3-1', '#lightbox=1-9', '#lightbox=0-1', '#lightbox=x']) {
      window.history.replaceState(null, '', `/gallery${hash}`);
      watchLightbox(window);
    }
    await settle();
    expect(openFromLinks).not.toHaveBeenCalled();
  });

  it('opens on the slide a path suffix names, in a gallery that does not move (001 §2)', async () => {
    window.history.replaceState(null, '', '/gallery-designs/sunset');
    const linked = (design: string) =>
      `<ul class="gallery gallery--${design}" data-lightbox-set data-linked-slide="sunset">
        <li><a id="first" href="/images/a.png" data-lightbox><img alt="A"></a></li>
        <li class="is-current"><a id="sunset" href="/images/b.png" data-lightbox><img alt="B"></a></li></ul>`;
    document.body.innerHTML = grid + linked('grid');
    watchLightbox(window);
    await vi.waitFor(() => expect(openFromLinks).toHaveBeenCalledTimes(1));
    const [, set, links, index] = openFromLinks.mock.calls[0]!;
    expect(set).toBe(document.querySelector('[data-linked-slide]'));
    expect(links[index].id).toBe('sunset');
    openFromLinks.mockClear();
    for (const design of ['slideshow', 'slider', 'carousel']) {
      document.body.innerHTML = linked(design);
      watchLightbox(window);
    }
    document.body.innerHTML = linked('grid').replace('data-lightbox><img alt="B">', '><img alt="B">');
    watchLightbox(window);
    await settle();
    expect(openFromLinks).not.toHaveBeenCalled();
  });
});
