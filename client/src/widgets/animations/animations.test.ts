import { describe, expect, it } from 'vitest';
import { ANIMATION_THRESHOLDS, LOADED_CLASS, PENDING_CLASS, animateBlocks, countsAsVisible } from './animations';

/** An IntersectionObserver the test drives by hand. */
class FakeObserver {
  static last: FakeObserver | null = null;
  readonly watched = new Set<Element>();
  constructor(
    readonly callback: (entries: IntersectionObserverEntry[]) => void,
    readonly options: IntersectionObserverInit,
  ) {
    FakeObserver.last = this;
  }
  observe(el: Element) {
    this.watched.add(el);
  }
  unobserve(el: Element) {
    this.watched.delete(el);
  }
  disconnect() {
    this.watched.clear();
  }
  /** Reports `el` at `ratio` of itself in a 1000 px viewport. */
  report(el: Element, ratio: number, height = 100) {
    const entry = {
      target: el,
      isIntersecting: ratio > 0,
      intersectionRatio: ratio,
      intersectionRect: { height: height * ratio },
      rootBounds: { height: 1000 },
    } as unknown as IntersectionObserverEntry;
    this.callback([entry]);
  }
}

function fakeWindow({ reduced = false, framed = false } = {}): Window & typeof globalThis {
  const win: Record<string, unknown> = {
    matchMedia: (q: string) => ({ matches: reduced && q.includes('reduce') }),
    IntersectionObserver: FakeObserver,
  };
  win.self = win;
  win.top = framed ? {} : win;
  return win as unknown as Window & typeof globalThis;
}

function blocks(n: number, html = ''): HTMLElement[] {
  document.body.innerHTML = Array.from({ length: n }, () => `<section class="block">${html}</section>`).join('');
  return [...document.querySelectorAll<HTMLElement>('section')];
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('block animations', () => {
  it('observe with the thresholds of the spec and count half in view as visible', () => {
    const [a] = blocks(1);
    animateBlocks(fakeWindow(), [a!]);
    expect(FakeObserver.last!.options.threshold).toEqual(ANIMATION_THRESHOLDS);
    const entry = (ratio: number, height = 100) =>
      ({ isIntersecting: ratio > 0, intersectionRatio: ratio, intersectionRect: { height: height * ratio }, rootBounds: { height: 1000 } }) as unknown as IntersectionObserverEntry;
    expect(countsAsVisible(entry(0.5))).toBe(true);
    expect(countsAsVisible(entry(0.49))).toBe(false);
    expect(countsAsVisible(entry(0.25, 4000))).toBe(true);
    expect(countsAsVisible(entry(0))).toBe(false);
  });

  it('marks blocks already in view at once and holds back the others until seen', async () => {
    const [top, below] = blocks(2);
    animateBlocks(fakeWindow(), [top!, below!]);
    const io = FakeObserver.last!;
    io.report(top!, 1);
    io.report(below!, 0);
    expect(top!.classList.contains(LOADED_CLASS)).toBe(true);
    expect(top!.classList.contains(PENDING_CLASS)).toBe(false);
    expect(below!.classList.contains(PENDING_CLASS)).toBe(true);
    io.report(below!, 0.25);
    await flush();
    expect(below!.classList.contains(LOADED_CLASS)).toBe(false);
    io.report(below!, 0.5);
    await flush();
    expect(below!.classList.contains(LOADED_CLASS)).toBe(true);
    expect(below!.classList.contains(PENDING_CLASS)).toBe(false);
    expect(io.watched.size).toBe(0);
  });

  it('waits for an image still loading', async () => {
    const [el] = blocks(1, '<img alt="" src="x.png">');
    const img = el!.querySelector('img')!;
    Object.defineProperty(img, 'complete', { value: false, configurable: true });
    animateBlocks(fakeWindow(), [el!]);
    FakeObserver.last!.report(el!, 0);
    FakeObserver.last!.report(el!, 1);
    await flush();
    expect(el!.classList.contains(LOADED_CLASS)).toBe(false);
    img.dispatchEvent(new Event('load'));
    await flush();
    expect(el!.classList.contains(LOADED_CLASS)).toBe(true);
  });

  it('is off in edit mode and under reduced motion', () => {
    for (const win of [fakeWindow({ framed: true }), fakeWindow({ reduced: true })]) {
      FakeObserver.last = null;
      const [el] = blocks(1);
      animateBlocks(win, [el!]);
      expect(FakeObserver.last).toBeNull();
      expect(el!.className).toBe('block');
    }
  });
});
