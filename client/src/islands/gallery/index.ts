// The gallery island: slideshow, slider and carousel designs move; the other designs
// keep the server's layout (their lightbox is the loader's). No React.
import { parseGalleryData } from './data';
import './gallery.css';
import { mountViewer } from './viewer';

/** Takes over a gallery block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  const options = parseGalleryData(data);
  const list = el.querySelector<HTMLElement>('ul.gallery');
  if (!options || !list || list.children.length === 0) return;
  if (options.layout === 'stacked' || options.layout === 'strip' || options.layout === 'carousel') {
    mountViewer(window, el, list, options);
  }
}
