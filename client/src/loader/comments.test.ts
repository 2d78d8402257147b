import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startComments } from './comments';
import { clearCookies, pageContext } from './telemetry/test-support';

// Spec 000 §7: "a comments-count script keyed by the configured comment-service short name";
// the thread the count links lead to.

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
    startComments(window, context());
    expect(scripts()).toEqual([]);
    FakeObserver.instances[0]!.show();
    expect(scripts()).toEqual([SCRIPT]);
    expect((document.getElementById('dsq-count-scr') as HTMLScriptElement | null)?.async).toBe(true);
    startComments(window, context());
    FakeObserver.instances[1]!.show();
    expect(scripts()).toEqual([SCRIPT]);
  });

  it('wait for consent under a restrictive policy', () => {
    startComments(window, context(true));
    expect(FakeObserver.instances).toHaveLength(0);
    document.cookie = 'ss_cookieAllowed=true; path=/';
    startComments(window, context(true));
    FakeObserver.instances[0]!.show();
    expect(scripts()).toEqual([SCRIPT]);
  });

  it('load nothing without a script address or without a count link', () => {
    startComments(window, context(false, null));
    document.body.innerHTML = '<p>No comments here</p>';
    startComments(window, context());
    expect(FakeObserver.instances).toHaveLength(0);
    expect(scripts()).toEqual([]);
  });
});

const THREAD_SCRIPT = 'https://veranda-porch.disqus.com/embed.js';

/** An item page's thread, as the server renders it. */
const THREAD = `<section aria-labelledby="comments-heading"><h2 id="comments-heading">Comments</h2>
  <div id="disqus_thread" data-comment-thread data-comment-identifier="post-1" data-comment-url="https://example.test/blog/a">
  <p data-comment-offer hidden>Comments are provided by an outside service that sets its own cookies.</p>
  <button type="button" data-comment-offer hidden>Show comments</button></div></section>`;

/** The context of a site whose thread script is `src`. */
const threadContext = (restrictive = false, src: string | null = THREAD_SCRIPT) => {
  const ctx = context(restrictive, null);
  Object.assign(ctx.websiteSettings, { commentThreadScriptUrl: src });
  return ctx;
};

/** The page the thread script would read from the service's `disqus_config`. */
function configuredPage(): { url?: string; identifier?: string } {
  const config = (window as Window & { disqus_config?: (this: { page: object }) => void }).disqus_config;
  const target = { page: {} as { url?: string; identifier?: string } };
  config?.call(target);
  return target.page;
}

describe('the comment thread', () => {
  beforeEach(() => {
    document.body.innerHTML += THREAD;
  });
  afterEach(() => {
    delete (window as Window & { disqus_config?: unknown }).disqus_config;
  });

  it('loads once near the viewport where cookies are allowed, naming the item and its address', () => {
    startComments(window, threadContext());
    expect(scripts()).toEqual([]);
    FakeObserver.instances[0]!.show();
    expect(scripts()).toEqual([THREAD_SCRIPT]);
    expect(configuredPage()).toEqual({ url: 'https://example.test/blog/a', identifier: 'post-1' });
    expect(document.querySelector('[data-comment-offer]')).toBeNull();
    startComments(window, threadContext());
    FakeObserver.instances[1]!.show();
    expect(scripts()).toEqual([THREAD_SCRIPT]);
  });

  it('is offered behind its button under a restrictive policy, and loads when asked, keeping focus there', () => {
    startComments(window, threadContext(true));
    expect(FakeObserver.instances).toHaveLength(0);
    expect(scripts()).toEqual([]);
    const button = document.querySelector<HTMLButtonElement>('button[data-comment-offer]')!;
    expect(button.hidden).toBe(false);
    expect(document.querySelector<HTMLElement>('p[data-comment-offer]')!.hidden).toBe(false);
    startComments(window, threadContext(true));
    button.click();
    expect(scripts()).toEqual([THREAD_SCRIPT]);
    expect(button.isConnected).toBe(false);
    expect(document.activeElement?.id).toBe('disqus_thread');
  });

  it('loads on its own once the visitor accepts cookies', () => {
    startComments(window, threadContext(true));
    document.cookie = 'ss_cookieAllowed=true; path=/';
    startComments(window, threadContext(true));
    FakeObserver.instances[0]!.show();
    expect(scripts()).toEqual([THREAD_SCRIPT]);
  });

  it('stays an empty offer without a thread script address', () => {
    startComments(window, threadContext(false, null));
    expect(scripts()).toEqual([]);
    expect(document.querySelector<HTMLButtonElement>('button[data-comment-offer]')!.hidden).toBe(true);
  });
});
