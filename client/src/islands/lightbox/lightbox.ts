// The lightbox: a full-window dialog showing the items of a set, with a polite "X of Y"
// announcement and the set and item in the address hash. Desktop: one item at a time,
// previous / next when the set has more than one item, arrow keys (throttled), edge
// clicks, and a 0.6 s slide between items. Mobile (up to 432 px): the items side by side
// in a scroller that snaps to each, a caption toggle, no previous / next controls. Reduced
// motion makes every change instant. A video item (a gallery's video slide) plays in the
// lightbox when it is the current item (see video.ts). Plain DOM, no React: it is a lazy chunk the loader
// fetches only when a lightbox opens.
import { pickWidth, sizedUrl } from '../../loader/images/ladder';
import { focusTrap } from '../../widgets/motion/focus-trap';
import './lightbox.css';
import { LIGHTBOX, closingDelay, edgeOf, itemAt, openingSteps, throttle } from './timing';
import { type LightboxVideo, type VideoLoaderOptions, type VideoPlayer, VIDEO_LOADER, loadVideo, videoOfLink } from './video';

/** One item of a lightbox set. */
export interface LightboxItem {
  /** Full image URL (sized for the window when shown). */
  src: string;
  /** Alternative text. */
  alt: string;
  /** Caption (the item's meta). */
  caption: string;
  /** A video item's player (its `src` image is the poster). */
  video?: LightboxVideo | null;
}

/** How a lightbox opens (field names from 001 §3). */
export interface LightboxOptions {
  set: LightboxItem[];
  currentSetIndex: number;
  /** Accessible name of the dialog; 'Gallery' by default. */
  title?: string;
  theme?: 'dark' | 'light';
  /** Write the set and the current item to the address hash (`#lightbox=S-N`). */
  historyHash?: boolean;
  /** The set's number on the page (1 for the first lightbox set), named in the hash. */
  setNumber?: number;
  /** Where focus returns on close. */
  trigger?: HTMLElement | null;
  /** Seconds moving to another item takes (0.6 by default; none with reduced motion). */
  speed?: number;
  /** Which of the previous / next controls show (both by default, when the set has more than one item). */
  controls?: { previous?: boolean; next?: boolean };
  /** How video items load (see video.ts). */
  videoLoaderOptions?: VideoLoaderOptions;
}

/**
 * The hash naming item `index` (zero-based) of set `setNumber` (one-based) of the page. The
 * loader also reads the older `#lightbox=N`, item N of the first set.
 */
export const hashFor = (index: number, setNumber = 1) => `#lightbox=${setNumber}-${index + 1}`;

/** An open lightbox. */
export interface Lightbox {
  readonly root: HTMLElement;
  readonly index: number;
  go(index: number): void;
  next(): void;
  previous(): void;
  close(): void;
}

/** Numbers the lightboxes opened on a page, so their element ids never clash. */
let opened = 0;

/** Builds a button; `label` is its accessible name when its text is a symbol. */
function button(doc: Document, className: string, label: string | null, text: string): HTMLButtonElement {
  const b = doc.createElement('button');
  b.type = 'button';
  b.className = className;
  if (label) b.setAttribute('aria-label', label);
  b.textContent = text;
  return b;
}

/** Opens a lightbox on `win`'s page. */
export function openLightbox(win: Window, options: LightboxOptions): Lightbox {
  const doc = win.document;
  const set = options.set;
  const count = set.length;
  const wrap = (i: number) => ((i % count) + count) % count;
  const reduced = win.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  const narrow = win.matchMedia?.(`(max-width: ${LIGHTBOX.mobileMaxWidth}px)`);
  const returnTo = options.trigger ?? (doc.activeElement instanceof HTMLElement ? doc.activeElement : null);
  const addressBefore = win.location.href;
  const id = `lightbox-${(opened += 1)}`;
  let index = wrap(options.currentSetIndex);
  let mobile = narrow?.matches ?? false;
  let captionsOpen = false;
  let closing = false;

  const root = doc.createElement('div');
  root.className = `lightbox lightbox--${options.theme === 'light' ? 'light' : 'dark'}`;
  root.setAttribute('role', 'dialog');
  root.setAttribute('aria-modal', 'true');
  root.setAttribute('aria-label', options.title || 'Gallery');
  const speedMs = options.speed !== undefined && Number.isFinite(options.speed) && options.speed >= 0 ? options.speed * 1000 : LIGHTBOX.slideMs;
  root.style.setProperty('--lightbox-slide', `${speedMs}ms`);
  const track = doc.createElement('div');
  track.className = 'lightbox-content';
  const figures = set.map((item, i) => {
    const figure = doc.createElement('figure');
    figure.className = item.video ? 'lightbox-item lightbox-item--video' : 'lightbox-item';
    const img = doc.createElement('img');
    img.alt = item.alt;
    const caption = doc.createElement('figcaption');
    caption.id = `${id}-caption-${i + 1}`;
    caption.textContent = item.caption;
    figure.append(img, caption);
    track.append(figure);
    return { figure, img, caption, hasCaption: item.caption.trim() !== '' };
  });
  const live = doc.createElement('p');
  live.className = 'lightbox-status';
  live.setAttribute('aria-live', 'polite');
  const close = button(doc, 'lightbox-close', 'Close', '×');
  const toggle = button(doc, 'lightbox-caption-toggle', null, 'Caption');
  toggle.setAttribute('aria-expanded', 'false');
  root.append(track, live, toggle);
  const previous = count > 1 && options.controls?.previous !== false ? button(doc, 'lightbox-previous', 'Previous', '‹') : null;
  const next = count > 1 && options.controls?.next !== false ? button(doc, 'lightbox-next', 'Next', '›') : null;
  for (const control of [previous, next]) if (control) root.append(control);
  root.append(close);

  /** Gives item `i` its image, sized for the window, once. */
  const load = (i: number) => {
    const entry = figures[i];
    const item = set[i];
    if (!entry || !item || entry.img.getAttribute('src')) return;
    entry.img.src = sizedUrl(item.src, pickWidth(win.innerWidth, win.devicePixelRatio || 1), win.location.href);
  };

  /** Shows the current item: its image (and its neighbours'), caption, position and hash. */
  const show = () => {
    if (count === 0) return;
    [index - 1, index, index + 1].forEach((i) => load(wrap(i)));
    figures.forEach((entry, i) => {
      entry.figure.hidden = !mobile && i !== index;
      entry.caption.hidden = !entry.hasCaption || (mobile && !captionsOpen);
    });
    const current = figures[index];
    toggle.hidden = !mobile || !figures.some((entry) => entry.hasCaption);
    toggle.setAttribute('aria-controls', current?.caption.id ?? '');
    live.textContent = `${index + 1} of ${count}`;
    if (options.historyHash) win.history.replaceState(win.history.state, '', hashFor(index, options.setNumber));
    playCurrent();
  };

  /** The players of video items, by item: only the current item keeps one. */
  const players = new Map<number, VideoPlayer>();
  const playCurrent = () => {
    for (const [i, player] of players) {
      if (i === index && !closing) continue;
      player.stop();
      players.delete(i);
    }
    const video = set[index]?.video;
    const figure = figures[index]?.figure;
    if (video && figure && !closing && !players.has(index)) players.set(index, loadVideo(win, figure, video, options.videoLoaderOptions));
  };
  let resizeTimer = 0;
  /** A playing video is sized again 1000 ms after the window's last resize (001 §9). */
  const onResize = () => {
    win.clearTimeout(resizeTimer);
    resizeTimer = win.setTimeout(() => players.forEach((player) => player.resize()), VIDEO_LOADER.reloadResizeMs);
  };

  /** Scrolls the mobile scroller to the current item. */
  const scrollToCurrent = (smooth: boolean) => {
    const left = index * track.clientWidth;
    if (track.scrollTo) track.scrollTo({ left, behavior: smooth && !reduced ? 'smooth' : 'auto' });
    else track.scrollLeft = left;
  };

  let slideTimer = 0;
  /** Slides the current item in from the side it comes from (desktop, motion allowed). */
  const slide = (direction: 'next' | 'previous') => {
    const duration = reduced ? 0 : speedMs;
    win.clearTimeout(slideTimer);
    figures.forEach((entry) => entry.figure.classList.remove('is-entering-next', 'is-entering-previous'));
    if (mobile || duration === 0) return;
    const figure = figures[index]?.figure;
    figure?.classList.add(`is-entering-${direction}`);
    slideTimer = win.setTimeout(() => figure?.classList.remove(`is-entering-${direction}`), duration);
  };

  const move = (to: number, direction: 'next' | 'previous') => {
    if (closing || count === 0) return;
    const from = index;
    index = wrap(to);
    if (index === from) return;
    show();
    if (mobile) scrollToCurrent(true);
    else slide(direction);
  };
  const go = (to: number) => move(to, wrap(to) > index ? 'next' : 'previous');

  /** Lays the lightbox out for the window: the scroller and caption toggle, or one item. */
  const layout = () => {
    root.classList.toggle('lightbox--scroll', mobile);
    for (const control of [previous, next]) if (control) control.hidden = mobile;
    // The scroller takes keyboard focus, so it can be scrolled without a pointer too.
    if (mobile) track.tabIndex = 0;
    else track.removeAttribute('tabindex');
    show();
    if (mobile) scrollToCurrent(false);
  };
  const onWidth = (event: MediaQueryListEvent) => {
    mobile = event.matches;
    layout();
  };

  let settleTimer = 0;
  /** On mobile the visitor scrolls between items; the one the scroller settles on is current. */
  const onScroll = () => {
    if (!mobile) return;
    win.clearTimeout(settleTimer);
    settleTimer = win.setTimeout(() => {
      const at = itemAt(track.scrollLeft, track.clientWidth, count);
      if (at !== index && !closing) {
        index = at;
        show();
      }
    }, LIGHTBOX.scrollSettleMs);
  };

  const trapTab = focusTrap(doc, { container: root });
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
    } else {
      // Tab stays inside the dialog.
      trapTab(event);
    }
  };
  const keyPrevious = throttle(LIGHTBOX.keyThrottleMs, () => lightbox.previous());
  const keyNext = throttle(LIGHTBOX.keyThrottleMs, () => lightbox.next());

  const onClick = (event: MouseEvent) => {
    const target = event.target as Element | null;
    if (target?.closest('button')) return;
    const edge = count > 1 && !mobile ? edgeOf(event.clientX, win.innerWidth) : null;
    if (edge === 'previous') lightbox.previous();
    else if (edge === 'next') lightbox.next();
    else if (!target?.closest('.lightbox-item img, .lightbox-item figcaption')) lightbox.close();
  };

  const timers: number[] = [];
  const lightbox: Lightbox = {
    root,
    get index() {
      return index;
    },
    go,
    next: () => move(index + 1, 'next'),
    previous: () => move(index - 1, 'previous'),
    close() {
      if (closing) return;
      closing = true;
      [...timers, slideTimer, settleTimer, resizeTimer].forEach((t) => win.clearTimeout(t));
      playCurrent();
      doc.removeEventListener('keydown', onKey, true);
      win.removeEventListener('resize', onResize);
      narrow?.removeEventListener?.('change', onWidth);
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
  toggle.addEventListener('click', () => {
    captionsOpen = !captionsOpen;
    toggle.setAttribute('aria-expanded', String(captionsOpen));
    show();
  });
  track.addEventListener('scroll', onScroll, { passive: true });
  root.addEventListener('click', onClick);
  doc.addEventListener('keydown', onKey, true);
  win.addEventListener('resize', onResize);
  narrow?.addEventListener?.('change', onWidth);

  doc.body.append(root);
  layout();
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
    // A video slide's poster is the item's image; its link goes to the player.
    return {
      src: (link.closest('[data-type="video"]') ? img?.getAttribute('data-src') : null) ?? link.getAttribute('href') ?? '',
      alt: img?.getAttribute('alt') ?? '',
      caption: link.closest('figure')?.querySelector('figcaption')?.textContent ?? '',
      video: videoOfLink(link),
    };
  });
  return openLightbox(win, {
    set,
    currentSetIndex: index,
    theme: container.getAttribute('data-lightbox-theme') === 'light' ? 'light' : 'dark',
    historyHash: true,
    setNumber: Array.from(win.document.querySelectorAll('[data-lightbox-set]')).indexOf(container) + 1 || 1,
    trigger: links[index] ?? null,
  });
}
