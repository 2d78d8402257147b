import { describe, expect, it, vi } from 'vitest';
import { isMobile, startImages } from './run';

/** A stand-in IntersectionObserver that records what it watches and lets the test fire entries. */
class FakeObserver {
  static last: FakeObserver | undefined;
  watched = new Set<Element>();
  constructor(
    public callback: IntersectionObserverCallback,
    public options: IntersectionObserverInit,
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
  fire(target: Element, isIntersecting: boolean) {
    this.callback([{ target, isIntersecting } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}

describe('lazy image loading', () => {
  it('watches with a 200 px margin and loads an image once it nears the viewport', () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    document.body.innerHTML = '<div><img data-src="/images/a.png"></div><div><img data-src="/images/b.png"></div>';
    const [a, b] = Array.from(document.querySelectorAll('img'));
    startImages(window);
    const observer = FakeObserver.last!;
    expect(observer.options.rootMargin).toBe('200px');
    expect(observer.watched.size).toBe(2);
    observer.fire(a!, false);
    expect(a!.hasAttribute('src')).toBe(false);
    observer.fire(a!, true);
    expect(a!.getAttribute('src')).toMatch(/^\/images\/a\.png\?format=\d+w$/);
    expect(a!.classList.contains('loading')).toBe(true);
    expect(observer.watched.has(a!)).toBe(false);
    expect(b!.hasAttribute('src')).toBe(false);
  });

  it('tells mobile devices apart', () => {
    expect(isMobile({ userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile' })).toBe(true);
    expect(isMobile({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)' })).toBe(false);
    expect(isMobile({ userAgent: 'Android', userAgentData: { mobile: false } })).toBe(false);
  });
});
