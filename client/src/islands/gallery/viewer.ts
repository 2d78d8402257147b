// The moving gallery layouts: slideshow (one slide at a time, with its transition and an
// optional thumbnail strip linked to it), slider strip (the current slide scrolled to the
// middle) and carousel (a row of slides per step). Plain DOM on top of the server's list;
// previous / next buttons, a pause control when it autoplays, a polite "X of Y" status,
// arrow keys and swipes (a newSwipe slideshow follows the finger while dragged, within its
// boundaries, and settles at its snap points). Slides
// click as 001 §4 asks (see clicks.ts); a slideshow loads only the current slide's and the
// next one's images (preloadCount 1; a slider's scroller already keeps the others waiting).
import { clickThrough, dueSlides, slideshowClick, stripClick } from './clicks';
import type { GalleryOptions } from './data';
import { applyFrame } from './frame';
import { Autoplay, type Point, carouselControls, carouselSlidesPerRow, lockAxis, motionAllowed, randomSlide, swipeDirection } from './motion';
import { onGalleryResize } from './resize';
import { Slides } from './slides';
import { NO_BOUNDARIES, boundedOffset, settleOffset, swipeAllowed } from './swipe-bounds';
import { mountThumbnails, thumbnailsPerRow } from './thumbs';
import { type Fling, focalOrigin, moveDirection, transitionTiming } from './transitions';
import { mountVideoSlides } from './video-slides';

/** Stacked speed is 1 s (fade in; fade out takes 1.2 times as long); 0 with reduced motion. */
const STACKED_SPEED_MS = 1000;
/** Strip speed is 0.5 s. */
const STRIP_SPEED_MS = 500;
/** A slideshow's current slide lies over the others at the base z-index (001 §9), inside the gallery's own stacking context. */
export const BASE_Z_INDEX = 888;
/** Slides loaded ahead of the current one (stacked preloadCount). */
const PRELOAD_COUNT = 1;

function control(doc: Document, className: string, label: string, text: string): HTMLButtonElement {
  const b = doc.createElement('button');
  b.type = 'button';
  b.className = `gallery-control ${className}`;
  b.setAttribute('aria-label', label);
  b.textContent = text;
  return b;
}

/** The region's name by layout; a page with several gets them numbered (landmarks must differ). */
const LABELS: Partial<Record<string, string>> = { stacked: 'Slideshow', strip: 'Slider', carousel: 'Carousel' };

function uniqueLabel(doc: Document, base: string): string {
  const taken = new Set(Array.from(doc.querySelectorAll('[role="region"][aria-label]'), (r) => r.getAttribute('aria-label')));
  let label = base;
  for (let n = 2; taken.has(label); n += 1) label = `${base} ${n}`;
  return label;
}

/** Whether a key press belongs to text editing (arrow keys are then left alone). */
function editing(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** Whether any part of `el` is inside the window. */
function onScreen(win: Window, el: HTMLElement): boolean {
  const box = el.getBoundingClientRect();
  return box.bottom > 0 && box.right > 0 && box.top < win.innerHeight && box.left < win.innerWidth && box.height > 0;
}

/**
 * Whether an arrow key press is this gallery's (001 §4 keyboard): pressed inside it, or on the
 * page itself (nothing focused) while it is on screen; never while editing text, with a
 * modifier (Alt+Left goes back), when something else took it, or under an open dialog.
 */
function arrowFor(win: Window, el: HTMLElement, event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || editing(event.target)) return false;
  if (win.document.querySelector('dialog[open]')) return false;
  const target = event.target as Node | null;
  if (target && el.contains(target)) return true;
  const doc = win.document;
  return (target === doc.body || target === doc.documentElement || target === doc) && onScreen(win, el);
}

/** Turns the server's `list` into a moving gallery inside `el`, on slide `startIndex`; returns its slides. */
export function mountViewer(win: Window, el: HTMLElement, list: HTMLElement, options: GalleryOptions, startIndex = 0): Slides {
  const doc = win.document;
  const items = Array.from(list.children) as HTMLElement[];
  const motion = motionAllowed(win);
  const layout = options.layout;
  const perRow = () => (layout === 'carousel' ? carouselSlidesPerRow(options.slidesPerRow, el.clientWidth || win.innerWidth) : 1);
  const groups = () => Math.max(1, Math.ceil(items.length / perRow()));
  const slides = new Slides(layout === 'carousel' ? groups() : items.length, layout !== 'carousel', layout === 'carousel' ? 0 : startIndex);
  /** The carousel's slides per row when its rows were last drawn. */
  let drawnRow = perRow();
  const speed = !motion ? 0 : layout === 'strip' ? STRIP_SPEED_MS : STACKED_SPEED_MS;
  // Without motion every slideshow cross-fades in no time (and ken burns does not zoom).
  const transition = layout === 'stacked' && motion ? options.transition : 'fade';
  const sliding = transition === 'scroll' || transition === 'scroll-vertical' || transition === 'swipe' || transition === 'newswipe';

  el.classList.add('gallery-viewer', `gallery-viewer--${layout}`);
  if (layout === 'stacked') {
    el.classList.add(`gallery-viewer--t-${transition}`);
    el.classList.toggle('gallery-viewer--sliding', sliding);
    el.dataset.direction = 'next';
    list.style.setProperty('--kb-ms', `${options.interval + speed * 1.2}ms`);
    if (transition === 'kenburns') {
      for (const img of list.querySelectorAll<HTMLImageElement>('img')) {
        img.style.transformOrigin = focalOrigin(img.getAttribute('data-image-focal-point'));
      }
    }
  }
  if (layout === 'strip') list.style.gap = `${options.vSize}px`;
  applyFrame(el, list, options);
  el.setAttribute('role', 'region');
  el.setAttribute('aria-roledescription', 'carousel');
  if (!el.hasAttribute('aria-label')) el.setAttribute('aria-label', uniqueLabel(doc, LABELS[layout] ?? 'Gallery'));
  const status = doc.createElement('p');
  status.className = 'gallery-status';
  status.setAttribute('aria-live', 'polite');
  const bar = doc.createElement('div');
  bar.className = 'gallery-controls';
  const previous = control(doc, 'gallery-previous', 'Previous slide', '‹');
  const next = control(doc, 'gallery-next', 'Next slide', '›');
  bar.append(previous, next);
  const advance = () => (options.randomize ? slides.go(randomSlide(slides.index, slides.count, Math.random)) : slides.next());
  const autoplay = new Autoplay(advance, options.autoplay && motion && items.length > 1, options.interval);
  let pause: HTMLButtonElement | null = null;
  if (autoplay.enabled) {
    pause = control(doc, 'gallery-pause', 'Pause slideshow', '❚❚');
    pause.setAttribute('aria-pressed', 'false');
    bar.append(pause);
  }
  el.append(bar, status);

  /** Slides whose images may load; the others wait (their images undisplayed) until due. */
  const loaded = new Set<number>();
  const render = (moved = false) => {
    const index = slides.index;
    const row = drawnRow;
    if (layout === 'stacked') {
      dueSlides(index, items.length, PRELOAD_COUNT).forEach((i) => loaded.add(i));
      items.forEach((item, i) => item.classList.toggle('gallery-deferred', !loaded.has(i)));
    }
    items.forEach((item, i) => {
      const current = layout === 'carousel' ? Math.floor(i / row) === index : i === index;
      item.classList.toggle('is-current', current);
      item.toggleAttribute('inert', layout === 'stacked' && !current);
      item.setAttribute('aria-hidden', String(layout === 'stacked' && !current));
      if (layout === 'stacked') item.style.zIndex = current ? String(BASE_Z_INDEX) : '';
    });
    if (layout === 'carousel') {
      const state = carouselControls(items.length, row, index);
      list.style.setProperty('--per-row', String(row));
      list.style.transform = `translateX(${-100 * index}%)`;
      previous.disabled = state.previousDisabled;
      next.disabled = state.nextDisabled;
      bar.hidden = state.hidden;
    }
    const item = items[index];
    if (layout === 'strip' && moved && item) {
      // The current slide in the middle of the strip (alignment middle), without scrolling the page.
      const left = item.offsetLeft - (list.clientWidth - item.clientWidth) / 2;
      list.scrollTo?.({ left, behavior: speed ? 'smooth' : 'auto' });
    }
    status.textContent = `${index + 1} of ${slides.count}`;
  };
  /** The drag that is ending in a swipe, for the newSwipe duration. */
  let fling: Fling | undefined;
  /** Where a newSwipe slide settled after its last drag (a snap point), in px. */
  let rest = 0;
  slides.on((event) => {
    if (event.type !== 'change') return;
    if (layout !== 'stacked') {
      render(true);
      win.setTimeout(() => slides.settle(), speed);
      return;
    }
    const timing = transitionTiming(transition, { speedMs: speed, motion, windowWidth: win.innerWidth, fling });
    fling = undefined;
    const leaving = items[event.previous];
    const incoming = items[event.index];
    el.dataset.direction = moveDirection(event.previous, event.index, items.length);
    list.style.setProperty('--in-ms', `${timing.inMs}ms`);
    list.style.setProperty('--out-ms', `${timing.outMs}ms`);
    items.forEach((item) => item.classList.remove('is-leaving'));
    // The incoming slide takes its starting place (the side it enters from) before it moves.
    void incoming?.offsetWidth;
    leaving?.classList.add('is-leaving');
    if (leaving) leaving.style.transform = '';
    rest = 0;
    render(true);
    win.setTimeout(() => {
      leaving?.classList.remove('is-leaving');
      slides.settle();
    }, timing.settleMs);
  });

  previous.addEventListener('click', () => slides.previous());
  next.addEventListener('click', () => slides.next());
  pause?.addEventListener('click', () => {
    const paused = !autoplay.pausedBy('control');
    if (paused) autoplay.pause('control');
    else autoplay.resume('control');
    pause.setAttribute('aria-pressed', String(paused));
    pause.setAttribute('aria-label', paused ? 'Play slideshow' : 'Pause slideshow');
    pause.textContent = paused ? '▶' : '❚❚';
  });
  // A mouse over the gallery pauses it; a finger does not (not on mobile, 001 §4): a tap
  // would otherwise pause it until the next tap elsewhere.
  el.addEventListener('pointerenter', (event) => {
    if (event.pointerType === 'mouse') autoplay.pause('hover');
  });
  el.addEventListener('pointerleave', () => autoplay.resume('hover'));
  el.addEventListener('focusin', () => autoplay.pause('focus'));
  el.addEventListener('focusout', (event) => {
    if (!el.contains(event.relatedTarget as Node | null)) autoplay.resume('focus');
  });
  doc.addEventListener('keydown', (event) => {
    const left = event.keyCode === 37 || event.key === 'ArrowLeft';
    const right = event.keyCode === 39 || event.key === 'ArrowRight';
    if ((!left && !right) || slides.inMotion || !el.isConnected || !arrowFor(win, el, event)) return;
    if (left) slides.previous();
    else slides.next();
  });
  if (layout === 'carousel' || layout === 'strip') {
    // Rows follow the width: the first slide shown stays in the row shown (001 §4
    // refreshOnResize, refreshOnOrientationChange), so every slide stays reachable; a
    // slider keeps its current slide in the middle. Both after the galleries' resize emitter.
    const stop = onGalleryResize(win, () => {
      if (!el.isConnected) return stop();
      if (layout === 'strip') return render(true);
      const row = perRow();
      if (row === drawnRow) return;
      const first = slides.index * drawnRow;
      drawnRow = row;
      slides.resize(groups(), Math.floor(first / row));
      render();
    });
  }
  let start: Point | null = null;
  const follow = transition === 'newswipe';
  // A newSwipe slideshow's boundaries hold its swipes even without motion (the slide then does not follow the finger).
  const bounds = layout === 'stacked' && options.transition === 'newswipe' ? options.boundaries : NO_BOUNDARIES;
  const place = (item: HTMLElement, px: number) => (item.style.transform = px ? `translateX(${px}px)` : '');
  const dragged = () => items[slides.index];
  /** The last press was a drag, so its click neither opens the lightbox nor follows a link. */
  let dragClick = false;
  list.addEventListener('pointerdown', (e) => {
    start = { x: e.clientX, y: e.clientY, t: e.timeStamp };
    dragClick = false;
  });
  list.addEventListener(
    'click',
    (e) => {
      if (!dragClick) return;
      dragClick = false;
      e.preventDefault();
      e.stopPropagation();
    },
    true,
  );
  list.addEventListener('click', (e) => {
    const item = items.find((li) => li.contains(e.target as Node));
    if (!item || e.defaultPrevented || clickThrough(e.target)) return;
    if (layout === 'stacked') {
      e.preventDefault();
      const box = list.getBoundingClientRect();
      if (slideshowClick(options.clickBehavior, e.clientX, box) === 'next') slides.next();
      else slides.previous();
    } else if (layout === 'strip') {
      const action = stripClick(slides.index, items.indexOf(item), options.activeClick);
      if (action === 'link') return;
      e.preventDefault();
      if (action === 'next') slides.next();
      else if (action === 'previous') slides.previous();
      else slides.go(action.go);
    }
  });
  if (layout === 'strip') {
    // Space activates a slide's link like Enter does (001 §4 strip click).
    list.addEventListener('keydown', (e) => {
      const link = (e.target as Element | null)?.closest?.('a');
      if (e.key !== ' ' || !link || !list.contains(link)) return;
      e.preventDefault();
      link.click();
    });
  }
  if (follow) {
    list.style.touchAction = 'pan-y';
    list.addEventListener('pointermove', (e) => {
      const item = dragged();
      if (!start || !item || slides.inMotion || lockAxis(start, { x: e.clientX, y: e.clientY, t: e.timeStamp }) !== 'x') return;
      item.style.transition = 'none';
      item.style.transform = `translateX(${boundedOffset(rest + e.clientX - start.x, slides.index, items.length, bounds)}px)`;
    });
  }
  const release = (e: PointerEvent) => {
    const end = { x: e.clientX, y: e.clientY, t: e.timeStamp };
    const swipe = start && swipeDirection(start, end);
    const direction = swipe && swipeAllowed(swipe, slides.index, items.length, bounds) ? swipe : null;
    const width = list.clientWidth || win.innerWidth;
    if (start && lockAxis(start, end) !== null) dragClick = true;
    if (start && direction) {
      const dx = Math.abs(end.x - start.x);
      fling = { remainingPx: width - dx, velocity: dx / Math.max(1, end.t - start.t) };
    }
    const dropped = start && rest + end.x - start.x;
    start = null;
    const item = dragged();
    // A drag that is not a swipe springs back, or settles at the nearest snap point; a swipe's slide leaves from where it was dropped.
    if (follow && item) item.style.transition = '';
    if (follow && item && !direction && dropped !== null) {
      place(item, (rest = settleOffset(dropped, width, options.snapPoints, slides.index, items.length, bounds)));
    }
    if (direction === 'next') slides.next();
    else if (direction === 'previous') slides.previous();
    if (follow && item && direction && slides.index === items.indexOf(item)) place(item, (rest = 0));
    fling = undefined;
  };
  list.addEventListener('pointerup', release);
  list.addEventListener('pointercancel', release);
  if (follow) {
    // A drag leaving the slideshow ends there; a mouse drags the slide, not the image.
    list.addEventListener('pointerleave', release);
    list.addEventListener('dragstart', (e) => e.preventDefault());
  }
  if (layout === 'stacked' && options.thumbnails && items.length > 1) {
    mountThumbnails(win, list, items, slides, {
      perRow: thumbnailsPerRow(options.thumbnailsPerRow, items.length),
      alignment: options.alignment,
      motion,
      activeClick: options.activeClick,
      square: options.squareThumbs,
      height: options.stripHeight,
      margin: options.stripMargin,
    });
  }
  mountVideoSlides(items, slides, autoplay, (i) => (layout === 'carousel' ? Math.floor(i / drawnRow) === slides.index : i === slides.index));
  // A slider opened on a linked slide (gallery history) shows it in the middle of the strip.
  render(layout === 'strip' && slides.index > 0);
  return slides;
}
