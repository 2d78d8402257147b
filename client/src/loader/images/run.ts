// The images chunk: watches every `img[data-src]` and loads each once it comes within
// 200 px of the viewport, through a queue of 16 loads at a time (1 on mobile).
import { type ImageEnvironment, loadImage } from './load';
import { createQueue, imageConcurrency } from './queue';

/** The parts of `navigator` we read; `connection` and `userAgentData` are not everywhere. */
interface NavigatorHints {
  connection?: { saveData?: boolean };
  userAgentData?: { mobile?: boolean };
  userAgent: string;
}

/** Whether the visitor is on a phone or tablet. */
export function isMobile(nav: NavigatorHints): boolean {
  return nav.userAgentData?.mobile ?? /Mobi|Android|iPhone|iPad/i.test(nav.userAgent);
}

/** The screen as the image loader needs it. */
export function environmentOf(win: Window): ImageEnvironment {
  const nav = win.navigator as unknown as NavigatorHints;
  return { dpr: win.devicePixelRatio || 1, dataSaver: nav.connection?.saveData === true, page: new URL(win.location.href) };
}

/** Starts lazy loading for the images under `root`; returns a function that stops watching. */
export function startImages(win: Window, root: ParentNode = win.document): () => void {
  const queue = createQueue(imageConcurrency(isMobile(win.navigator as unknown as NavigatorHints)));
  const enqueue = (el: Element) => queue.push(() => loadImage(el, environmentOf(win)));
  const images = Array.from(root.querySelectorAll('img[data-src]'));
  if (typeof IntersectionObserver === 'undefined') {
    images.forEach(enqueue);
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        enqueue(entry.target);
      }
    },
    { rootMargin: '200px' },
  );
  images.forEach((img) => observer.observe(img));
  return () => observer.disconnect();
}
