import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startCommentCounts } from './comments';
import { clearCookies, pageContext } from './telemetry/test-support';

// Spec 000 §7: "a comments-count script keyed by the configured comment-service short name".

/** An IntersectionObserver the test drives by hand. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  readonly targets: Element[] = [];
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.instances.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  disconnect() {}
  /** Reports the first target in view. */
  show() {
    this.callback([{ isIntersecting: true, target: this.targets[0] } as IntersectionObserverEntry], this as never);
  }
}

const SCRIPT = 'https://veranda-porch.disqus.com/count.js';

/** A page context with comments on: the count script of short name `veranda-porch`. */
const context = (restrictive = false, src: string | null = SCRIPT) => {
  const ctx = pageContext({}, restrictive);
  Object.assign(ctx.websiteSettings, { commentsEnabled: true, disqusShortname: 'veranda-porch', commentCountScriptUrl: src });
  return ctx;
};

const scripts = () => [...document.querySelectorAll('script')].map((s) => s.getAttribute('src'));

beforeEach(() => {
  FakeObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  document.body.innerHTML = '<p><a class="comment-count" href="/blog/a#disqus_thread" data-comment-count>Comments</a></p>';
});
afterEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  clearCookies();
  vi.unstubAllGlobals();
});

describe('comment counts', () => {
  it('load the short name\'s count script once the count link comes into view, once', () => {
    startCommentCounts(window, context());
    expect(scripts()).toEqual([]);
    FakeObserver.instances[0]!.show();
    expect(scripts()).toEqual([SCRIPT]);
    expect((document.getElementById('dsq-count-scr') as HTMLScriptElement | null)?.async).toBe(true);
    startCommentCounts(window, context());
    FakeObserver.instances[1]!.show();
    expect(scripts()).toEqual([SCRIPT]);
  });

  it('wait for consent under a restrictive policy', () => {
    startCommentCounts(window, context(true));
    expect(FakeObserver.instances).toHaveLength(0);
    document.cookie = 'ss_cookieAllowed=true; path=/';
    startCommentCounts(window, context(true));
    FakeObserver.instances[0]!.show();
    expect(scripts()).toEqual([SCRIPT]);
  });

  it('load nothing without a script address or without a count link', () => {
    startCommentCounts(window, context(false, null));
    document.body.innerHTML = '<p>No comments here</p>';
    startCommentCounts(window, context());
    expect(FakeObserver.instances).toHaveLength(0);
    expect(scripts()).toEqual([]);
  });
});
