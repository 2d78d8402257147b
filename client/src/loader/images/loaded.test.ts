import { afterEach, describe, expect, it } from 'vitest';

import { imagesLoaded } from './loaded';

describe('the image-loading promise', () => {
  afterEach(() => document.body.replaceChildren());

  it("rejects with 'No root node' without a root and 'No images' without an image (001 §8)", async () => {
    await expect(imagesLoaded(null)).rejects.toThrow(/^No root node$/);
    const empty = document.createElement('div');
    empty.innerHTML = '<p>Text only</p>';
    await expect(imagesLoaded(empty)).rejects.toThrow(/^No images$/);
  });

  it('resolves once every image has loaded or failed', async () => {
    const root = document.createElement('div');
    root.innerHTML = '<img alt="a"><img alt="b">';
    const [a, b] = [...root.querySelectorAll('img')];
    for (const img of [a!, b!]) Object.defineProperty(img, 'complete', { value: false });
    let settled = false;
    const waiting = imagesLoaded(root).then(() => {
      settled = true;
    });
    a!.dispatchEvent(new Event('load'));
    await Promise.resolve();
    expect(settled).toBe(false);
    b!.dispatchEvent(new Event('error'));
    await waiting;
    expect(settled).toBe(true);
  });
});
