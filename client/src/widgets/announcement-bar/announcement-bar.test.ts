import { beforeEach, describe, expect, it } from 'vitest';
import { DISMISSED_KEY, isDismissed, startAnnouncementBar } from './announcement-bar';

function page(text = 'Porch music every Friday'): { bar: HTMLElement; close: HTMLButtonElement; main: HTMLElement } {
  document.body.innerHTML = `<aside class="announcement-bar" aria-label="Announcement"><p><a href="/events">${text}</a></p>
    <button type="button" class="announcement-bar-close" aria-label="Close announcement" hidden>×</button></aside>
    <main id="main" tabindex="-1"></main>`;
  return {
    bar: document.querySelector('aside')!,
    close: document.querySelector('button')!,
    main: document.querySelector('main')!,
  };
}

beforeEach(() => localStorage.clear());

describe('the announcement bar', () => {
  it('shows its close button once started', () => {
    const { bar, close, main } = page();
    startAnnouncementBar(bar, localStorage, main);
    expect(close.hidden).toBe(false);
    expect(bar.hidden).toBe(false);
  });

  it('closes, remembers the announcement and moves focus to the content', () => {
    const { bar, close, main } = page();
    startAnnouncementBar(bar, localStorage, main);
    close.click();
    expect(bar.hidden).toBe(true);
    expect(document.activeElement).toBe(main);
    expect(localStorage.getItem(DISMISSED_KEY)).toBe('Porch music every Friday');
    const next = page();
    startAnnouncementBar(next.bar, localStorage, next.main);
    expect(next.bar.hidden).toBe(true);
  });

  it('shows a new announcement again', () => {
    const first = page('Old news');
    startAnnouncementBar(first.bar, localStorage, first.main);
    first.close.click();
    const second = page('New news');
    expect(isDismissed(second.bar, localStorage)).toBe(false);
    startAnnouncementBar(second.bar, localStorage, second.main);
    expect(second.bar.hidden).toBe(false);
  });

  it('still closes for this page when storage is blocked', () => {
    const { bar, close, main } = page();
    const blocked = { getItem: () => { throw new Error('blocked'); }, setItem: () => { throw new Error('blocked'); } } as unknown as Storage;
    startAnnouncementBar(bar, blocked, main);
    close.click();
    expect(bar.hidden).toBe(true);
    startAnnouncementBar(page().bar, null, null);
    expect(document.querySelector('aside')!.hidden).toBe(false);
  });
});
