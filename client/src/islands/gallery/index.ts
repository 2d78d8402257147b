// The gallery island: slideshow (with its transitions and thumbnail strip), slider and
// carousel designs move; the other designs (grid, autogrid, autocolumns, autorows, list,
// stacked) keep the server's CSS layout (their lightbox is the loader's), except that an
// autogrid or autocolumns gallery whose `behavior` is not `min` gets its rounded-up column
// count here (columns.ts). No React.
import { watchSlideLinks } from './click-through';
import { mountAutoColumns } from './columns';
import { parseGalleryData } from './data';
import './gallery.css';
import { galleryHistory, historyEnabled } from './history';
import { watchMeta } from './meta';
import { mountViewer } from './viewer';

/**
 * Takes over a gallery block's element. Bad data (001 §8: an unknown design or transition
 * throws here) is logged and the server's gallery stays as it is: visitors see no error.
 */
export function mount(el: HTMLElement, data: unknown): void {
  try {
    const options = parseGalleryData(data);
    const list = el.querySelector<HTMLElement>('ul.gallery');
    if (!options || !list || list.children.length === 0) return;
    if (options.layout === 'stacked' || options.layout === 'strip' || options.layout === 'carousel') {
      // History deep links follow one slide at a time: slideshows and sliders, not carousels.
      const history = options.layout !== 'carousel' && historyEnabled(data) ? galleryHistory(window, list) : null;
      const slides = mountViewer(window, el, list, options, history?.start);
      history?.follow(slides);
    }
    if (options.layout === 'autogrid' || options.layout === 'autocolumns') {
      const { columnWidth, gutter, columnBehavior: behavior } = options;
      mountAutoColumns(window, el, list, options.layout, { columnWidth, gutter, behavior });
    }
    if (list.hasAttribute('data-lightbox-set')) {
      // A video slide opens in the lightbox too, as a video item (its player plays there).
      for (const link of list.querySelectorAll(':scope > li[data-type="video"] > figure > a')) link.setAttribute('data-lightbox', '');
    }
    watchMeta(window, list);
    // After the viewer's own click handling, which uses the clicks a moving gallery needs.
    watchSlideLinks(window, list);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
  }
}
