// The gallery island: slideshow (with its transitions and thumbnail strip), slider and
// carousel designs move; the other designs (grid, autogrid, autocolumns, autorows, list,
// stacked) keep the server's CSS layout (their lightbox is the loader's). No React.
import { parseGalleryData } from './data';
import './gallery.css';
import { mountViewer } from './viewer';

/** Takes over a gallery block's element. */
export function mount(el: HTMLElement, data: unknown): void {
  let options: ReturnType<typeof parseGalleryData>;
  try {
    options = parseGalleryData(data);
  } catch (error) {
    // An unknown slideshow transition: logged, and the server's layout stays (001 §8).
    console.error(error instanceof Error ? error.message : error);
    return;
  }
  const list = el.querySelector<HTMLElement>('ul.gallery');
  if (!options || !list || list.children.length === 0) return;
  if (options.layout === 'stacked' || options.layout === 'strip' || options.layout === 'carousel') {
    mountViewer(window, el, list, options);
  }
}
