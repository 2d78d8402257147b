import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DISMISSED_KEY, DISMISSED_MAX_AGE_SECONDS, isDismissed, startAnnouncementBar } from './announcement-bar';

const ID = '3f2a9c0d1e4b5a67';

function page(text = 'Porch music every Friday', id: string | null = ID): { bar: HTMLElement; close: HTMLButtonElement; main: HTMLElement } {
  const attr = id === null ? '' : ` data-announcement-id="${id}"`;
  document.body.innerHTML = `<aside class="announcement-bar" aria-label="Announcement"${attr}><p><a href="/events">${text}</a></p>
    <button type="button" class="announcement-bar-close" aria-label="Close announcement" hidden>×</button></aside>
    <main id="main" tabindex="-1"></main>`;
  return {
    bar: document.querySelector('aside')!,
    close: document.querySelector('button')!,
    main: document.querySelector('main')!,
  };
}

/** Every `document.cookie = …` write, as written (jsdom's getter gives name=value only). */
let writes: string[] = [];
const native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;

function clearCookie(): void {
  native.set!.call(document, `${DISMISSED_KEY}=; path=/; max-age=0`);
}

beforeEach(() => {
  localStorage.clear();
  clearCookie();
  writes = [];
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: () => native.get!.call(document) as string,
    set: (value: string) => {
      writes.push(value);
      native.set!.call(document, value);
    },
  });
});

afterEach(() => {
  delete (document as { cookie?: string }).cookie;
  clearCookie();
});

describe('the announcement bar', () => {
  it('shows its close button once started, and writes nothing', () => {
    const { bar, close, main } = page();
    startAnnouncementBar(bar, localStorage, main);
    expect(close.hidden).toBe(false);
    expect(bar.hidden).toBe(false);
    expect(writes).toEqual([]);
  });

  it('closes, sets the dismissal cookie for the server and moves focus to the content', () => {
    const { bar, close, main } = page();
    startAnnouncementBar(bar, localStorage, main);
    close.click();
    expect(bar.hidden).toBe(true);
    expect(document.activeElement).toBe(main);
    expect(writes).toEqual([`${DISMISSED_KEY}=${ID}; path=/; max-age=${DISMISSED_MAX_AGE_SECONDS}; SameSite=Lax`]);
    expect(DISMISSED_MAX_AGE_SECONDS).toBe(365 * 24 * 60 * 60);
    expect(document.cookie).toContain(`${DISMISSED_KEY}=${ID}`);
    expect(localStorage.getItem(DISMISSED_KEY)).toBe(ID);
    const next = page();
    startAnnouncementBar(next.bar, localStorage, next.main);
    expect(next.bar.hidden).toBe(true);
  });

  it('shows a new announcement again', () => {
    const first = page('Old news', '1111111111111111');
    startAnnouncementBar(first.bar, localStorage, first.main);
    first.close.click();
    const second = page('New news', '2222222222222222');
    expect(isDismissed(second.bar, localStorage)).toBe(false);
    startAnnouncementBar(second.bar, localStorage, second.main);
    expect(second.bar.hidden).toBe(false);
  });

  it('writes the cookie again when only storage remembers the dismissal', () => {
    localStorage.setItem(DISMISSED_KEY, ID);
    const { bar, main } = page();
    startAnnouncementBar(bar, localStorage, main);
    expect(bar.hidden).toBe(true);
    expect(document.cookie).toContain(`${DISMISSED_KEY}=${ID}`);
  });

  it('is hidden by the cookie alone, with storage blocked', () => {
    native.set!.call(document, `${DISMISSED_KEY}=${ID}; path=/`);
    const { bar, main } = page();
    startAnnouncementBar(bar, null, main);
    expect(bar.hidden).toBe(true);
  });

  it('still closes, and sets the cookie, when storage is blocked', () => {
    const { bar, close, main } = page();
    const blocked = { getItem: () => { throw new Error('blocked'); }, setItem: () => { throw new Error('blocked'); } } as unknown as Storage;
    startAnnouncementBar(bar, blocked, main);
    close.click();
    expect(bar.hidden).toBe(true);
    expect(document.cookie).toContain(`${DISMISSED_KEY}=${ID}`);
    clearCookie();
    startAnnouncementBar(page().bar, null, null);
    expect(document.querySelector('aside')!.hidden).toBe(false);
  });

  it('keeps a bar without a server id to storage (its text), writing no cookie', () => {
    const { bar, close, main } = page('Porch music every Friday', null);
    startAnnouncementBar(bar, localStorage, main);
    close.click();
    expect(bar.hidden).toBe(true);
    expect(writes).toEqual([]);
    expect(localStorage.getItem(DISMISSED_KEY)).toBe('Porch music every Friday');
  });
});
