// The lightbox: a full-window dialog showing one item of a set, with previous / next
// when the set has more than one item, arrow keys (throttled), edge clicks, a polite
// "X of Y" announcement and the item in the address hash. Plain DOM, no React: it is a
// lazy chunk the loader fetches only when a lightbox opens.
import { pickWidth, sizedUrl } from '../../loader/images/ladder';
import './lightbox.css';
import { LIGHTBOX, closingDelay, edgeOf, openingSteps, throttle } from './timing';

/** One item of a lightbox set. */
export interface LightboxItem {
  /** Full image URL (sized for the window when shown). */
  src: string;
  /** Alternative text. */
  alt: string;
  /** Caption (the item's meta). */
  caption: string;
}

/** How a lightbox opens (field names from 001 §3). */
export interface LightboxOptions {
  set: LightboxItem[];
  currentSetIndex: number;
  /** Accessible name of the dialog; 'Gallery' by default. */
  title?: string;
  theme?: 'dark' | 'light';
  /** Write the current item to the address hash (`#lightbox=N`). */
  historyHash?: boolean;
  /** Where focus returns on close. */
  trigger?: HTMLElement | null;
}

/** The hash naming item `index` (zero-based) of the open set. */
export const hashFor = (index: number) => `#lightbox=${index + 1}`;

/** An open lightbox. */
export interface Lightbox {
  readonly root: HTMLElement;
  readonly index: number;
  go(index: number): void;
  next(): void;
  previous(): void;
  close(): void;
}

const FOCUSABLE = 'button:not([hidden]), [href], [tabindex]:not([tabindex="-1"])';

/** Builds a button with an accessible name. */
function button(doc: Document, className: string, label: string, text: string): HTMLButtonElement {
  const b = doc.createElement('button');
  b.type = 'button';
  b.className = className;
  b.setAttribute('aria-label', label);
  b.textContent = text;
  return b;
}

/** Opens a lightbox on `win`'s page. */
export function openLightbox(win: Window, options: LightboxOptions): Lightbox {
  const doc = win.document;
  const set = options.set;
  const count = set.length;
  const reduced = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const returnTo = options.trigger ?? (doc.activeElement instanceof HTMLElement ? doc.activeElement : null);
  const addressBefore = win.location.href;
  let index = ((options.currentSetIndex % count) + count) % count;
  let closing = false;

  const root = doc.createElement('div');
  root.className = `lightbox lightbox--${options.theme === 'light' ? 'light' : 'dark'}`;
  root.setAttribute('role', 'dialog');
  root.setAttribute('aria-modal', 'true');
  root.setAttribute('aria-label', options.title || 'Gallery');
  const figure = doc.createElement('figure');
  figure.className = 'lightbox-content';
  const img = doc.createElement('img');
  const caption = doc.createElement('figcaption');
  figure.append(img, caption);
  const live = doc.createElement('p');
  live.className = 'lightbox-status';
  live.setAttribute('aria-live', 'polite');
  const close = button(doc, 'lightbox-close', 'Close', '×');
  root.append(figure, live);
  const previous = count > 1 ? button(doc, 'lightbox-previous', 'Previous', '‹') : null;
  const next = count > 1 ? button(doc, 'lightbox-next', 'Next', '›') : null;
  if (previous && next) root.append(previous, next);
  root.append(close);

  const show = () => {
    const item = set[index];
    if (!item) return;
    const width = pickWidth(win.innerWidth, win.devicePixelRatio || 1);
    img.src = sizedUrl(item.src, width, win.location.href);
    img.alt = item.alt;
    caption.textContent = item.caption;
    caption.hidden = item.caption.trim() === '';
    live.textContent = `${index + 1} of ${count}`;
    if (options.historyHash) win.history.replaceState(win.history.state, '', hashFor(index));
  };

  const go = (to: number) => {
    if (closing || count === 0) return;
    index = ((to % count) + count) % count;
    show();
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      lightbox.close();
    } else if (count > 1 && (event.keyCode === LIGHTBOX.keyLeft || event.key === 'ArrowLeft')) {
      event.preventDefault();
      keyPrevious();
    } else if (count > 1 && (event.keyCode === LIGHTBOX.keyRight || event.key === 'ArrowRight')) {
      event.preventDefault();
      keyNext();
    } else if (event.key === 'Tab') {
      // Keep focus inside the dialog.
      const inside = Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE));
      const first = inside[0];
      const last = inside[inside.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && doc.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && doc.activeElement === last) {
        event.preventDefault();
        first.focus();
      } else if (!root.contains(doc.activeElement)) {
        event.preventDefault();
        first.focus();
      }
    }
  };
  const keyPrevious = throttle(LIGHTBOX.keyThrottleMs, () => go(index - 1));
  const keyNext = throttle(LIGHTBOX.keyThrottleMs, () => go(index + 1));

  const onClick = (event: MouseEvent) => {
    const target = event.target as Element | null;
    if (target?.closest('button')) return;
    const edge = count > 1 ? edgeOf(event.clientX, win.innerWidth) : null;
    if (edge === 'previous') go(index - 1);
    else if (edge === 'next') go(index + 1);
    else if (!target?.closest('.lightbox-content img')) lightbox.close();
  };

  const timers: number[] = [];
  const lightbox: Lightbox = {
    root,
    get index() {
      return index;
    },
    go,
    next: () => go(index + 1),
    previous: () => go(index - 1),
    close() {
      if (closing) return;
      closing = true;
      timers.forEach((t) => win.clearTimeout(t));
      doc.removeEventListener('keydown', onKey, true);
      root.classList.remove('is-overlay', 'is-content', 'is-controls');
      root.classList.add('is-closing');
      if (options.historyHash) win.history.replaceState(win.history.state, '', addressBefore);
      const finish = () => {
        root.remove();
        doc.body.classList.remove('lightbox-open');
        returnTo?.focus();
      };
      const delay = closingDelay(reduced);
      if (delay === 0) finish();
      else win.setTimeout(finish, delay);
    },
  };

  close.addEventListener('click', () => lightbox.close());
  previous?.addEventListener('click', () => lightbox.previous());
  next?.addEventListener('click', () => lightbox.next());
  root.addEventListener('click', onClick);
  doc.addEventListener('keydown', onKey, true);

  show();
  doc.body.append(root);
  doc.body.classList.add('lightbox-open');
  for (const step of openingSteps(reduced)) {
    const apply = () => root.classList.add(`is-${step.phase}`);
    if (step.at === 0) apply();
    else timers.push(win.setTimeout(apply, step.at));
  }
  close.focus();
  return lightbox;
}

/** Opens the set of `links` (each an `a[data-lightbox]` around an image) at `index`. */
export function openFromLinks(win: Window, container: Element, links: HTMLAnchorElement[], index: number): Lightbox {
  const set = links.map((link) => {
    const img = link.querySelector('img');
    return {
      src: link.getAttribute('href') ?? '',
      alt: img?.getAttribute('alt') ?? '',
      caption: link.closest('figure')?.querySelector('figcaption')?.textContent ?? '',
    };
  });
  return openLightbox(win, {
    set,
    currentSetIndex: index,
    theme: container.getAttribute('data-lightbox-theme') === 'light' ? 'light' : 'dark',
    historyHash: true,
    trigger: links[index] ?? null,
  });
}
