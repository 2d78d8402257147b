import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PADDING_RATIO, INVALID_VIDEO_EMBED, playerMessage, playingSrc, videoEmbedType, videoMode } from './embed';
import { frameBox, motionAllowed, mountVideo, type VideoPlayer } from './video';

const FRAME = '<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Clip" width="640" height="360"></iframe>';

/** A video block as the server renders it. */
function block(title = 'Clip', frame = FRAME): HTMLElement {
  const section = document.createElement('section');
  section.innerHTML = `<figure class="video"><a href="https://video.example/1"><img class="video-poster" src="/images/p.png" alt=""><span class="video-title">Watch “${title}”</span></a><template class="video-embed">${frame}</template></figure>`;
  document.body.append(section);
  return section;
}

const mounted: VideoPlayer[] = [];
function mountBlock(el: HTMLElement, data: Record<string, unknown>, win: Window = window): VideoPlayer | null {
  const player = mountVideo(win, el, { html: FRAME, title: 'Clip', ...data });
  if (player) mounted.push(player);
  return player;
}

afterEach(() => {
  mounted.splice(0).forEach((p) => p.destroy());
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('embed rules', () => {
  it('accepts iframes and objects with an embed, nested or not', () => {
    expect(videoEmbedType(FRAME)).toBe('iframe');
    expect(videoEmbedType(`<div><p>${FRAME}</p></div>`)).toBe('iframe');
    expect(videoEmbedType('<object data="v"><embed src="v"></object>')).toBe('object');
    expect(videoEmbedType('<div><object data="v"><param name="a" value="b"><embed src="v"></object></div>')).toBe('object');
  });

  it('refuses an object without an embed, missing html and anything else', () => {
    for (const html of ['<object data="v"></object>', '', '  ', undefined, null, 42, '<p>text</p>', '<video src="a.mp4"></video>']) {
      expect(videoEmbedType(html)).toBe('invalid');
    }
  });

  it('knows the three modes and defaults to fit', () => {
    expect(['none', 'fit', 'fill', 'stretch', undefined].map(videoMode)).toEqual(['none', 'fit', 'fill', 'fit', 'fit']);
  });

  it('speaks each player family’s pause and play message', () => {
    expect(JSON.parse(playerMessage('https://www.youtube.com/embed/x', 'pause'))).toEqual({ event: 'command', func: 'pauseVideo', args: [] });
    expect(JSON.parse(playerMessage('https://www.youtube-nocookie.com/embed/x', 'play')).func).toBe('playVideo');
    expect(JSON.parse(playerMessage('https://player.vimeo.com/video/1', 'pause'))).toEqual({ method: 'pause' });
  });

  it('asks the player to start, muted when it starts on its own', () => {
    const src = new URL(playingSrc('https://www.youtube-nocookie.com/embed/x?rel=0', true));
    expect(Object.fromEntries(src.searchParams)).toEqual({ rel: '0', autoplay: '1', enablejsapi: '1', mute: '1' });
    expect(new URL(playingSrc('https://player.vimeo.com/video/1', false)).searchParams.get('mute')).toBeNull();
  });
});

describe('dimensions', () => {
  it('pads by 56.3 % without dimensions and by the embed ratio when it fits', () => {
    expect(DEFAULT_PADDING_RATIO).toBe(56.3);
    expect(frameBox('fit', null, null)).toEqual({ padding: 56.3, width: 100, height: 100 });
    expect(frameBox('fit', 400, 300)).toEqual({ padding: 75, width: 100, height: 100 });
    expect(frameBox('none', 400, 300).padding).toBeNull();
  });

  it('covers the 56.3 % box when it fills, cropping evenly', () => {
    const tall = frameBox('fill', 400, 300);
    expect(tall.padding).toBe(56.3);
    expect(tall.width).toBe(100);
    expect(tall.height).toBeCloseTo((75 / 56.3) * 100);
    const wide = frameBox('fill', 1000, 400);
    expect(wide.height).toBe(100);
    expect(wide.width).toBeCloseTo((56.3 / 40) * 100);
  });
});

describe('the video island', () => {
  it('warns and keeps the link for an invalid embed', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = block();
    expect(mountVideo(window, el, { html: '<object data="v"></object>', title: 'Clip' })).toBeNull();
    expect(warn).toHaveBeenCalledWith(INVALID_VIDEO_EMBED);
    expect(el.querySelector('figure')!.classList.contains('video--invalid')).toBe(true);
    expect(el.querySelector('button')).toBeNull();
    expect(el.querySelector('a')!.getAttribute('href')).toBe('https://video.example/1');
    expect(el.querySelector('figure > p.video-error')!.textContent).toBe('Invalid video embed.');
    mountVideo(window, el, { html: '', title: 'Clip' });
    expect(el.querySelectorAll('.video-error')).toHaveLength(1);
  });

  it('puts a named play overlay over the poster, in a box of the embed’s ratio', () => {
    const el = block();
    mountBlock(el, {});
    const wrapper = el.querySelector<HTMLElement>('.video-wrapper')!;
    expect(wrapper.classList.contains('video-wrapper--fit')).toBe(true);
    expect(wrapper.style.paddingBottom).toBe('56.25%');
    expect(wrapper.querySelector('img.video-poster')).not.toBeNull();
    expect(wrapper.querySelector('button')!.getAttribute('aria-label')).toBe('Play Clip');
    expect(el.querySelector('iframe:not(template iframe)')).toBeNull();
  });

  it('shows the video on a click and moves focus into it', () => {
    const el = block();
    const player = mountBlock(el, {})!;
    el.querySelector<HTMLButtonElement>('.video-play')!.click();
    const frame = el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!;
    expect(player.showing).toBe(true);
    expect(new URL(frame.src).searchParams.get('autoplay')).toBe('1');
    expect(frame.title).toBe('Clip');
    expect(document.activeElement).toBe(frame);
    expect(el.querySelector<HTMLButtonElement>('.video-play')!.hidden).toBe(true);
  });

  it.each(['Enter', ' '])('shows the video on %j', (key) => {
    const el = block();
    const player = mountBlock(el, {})!;
    const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
    el.querySelector('.video-play')!.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(player.showing).toBe(true);
  });

  it('plays one video at a time: showing one returns the others to their overlay, paused', () => {
    const first = block('One');
    const second = block('Two');
    const a = mountBlock(first, {})!;
    const b = mountBlock(second, {})!;
    first.querySelector<HTMLButtonElement>('.video-play')!.click();
    const frame = first.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!;
    const posted = vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation(() => {});
    second.querySelector<HTMLButtonElement>('.video-play')!.click();
    expect(a.showing).toBe(false);
    expect(b.showing).toBe(true);
    expect(first.querySelector('.video-wrapper iframe')).toBeNull();
    expect(first.querySelector<HTMLButtonElement>('.video-play')!.hidden).toBe(false);
    expect(posted).toHaveBeenCalledWith(JSON.stringify({ event: 'command', func: 'pauseVideo', args: [] }), 'https://www.youtube-nocookie.com');
  });

  it('pauses a video without an overlay when another starts, keeping its player in place', () => {
    const first = block('One');
    const second = block('Two');
    const a = mountBlock(first, { overlay: false })!;
    const b = mountBlock(second, {})!;
    const frame = first.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!;
    const posted = vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation(() => {});
    second.querySelector<HTMLButtonElement>('.video-play')!.click();
    expect(b.showing).toBe(true);
    expect(a.showing).toBe(true);
    expect(first.querySelector('.video-wrapper iframe')).toBe(frame);
    expect(posted).toHaveBeenCalledWith(JSON.stringify({ event: 'command', func: 'pauseVideo', args: [] }), 'https://www.youtube-nocookie.com');
  });

  it('leaves a playing video alone when a video without an overlay is put in place unstarted', () => {
    const first = block('One');
    const a = mountBlock(first, {})!;
    first.querySelector<HTMLButtonElement>('.video-play')!.click();
    mountBlock(block('Two'), { overlay: false });
    expect(a.showing).toBe(true);
  });

  it('lays the video out by mode', () => {
    const none = block();
    mountBlock(none, { mode: 'none' })!.show({ focus: false, muted: false });
    expect(none.querySelector<HTMLElement>('.video-wrapper')!.style.paddingBottom).toBe('');
    expect(none.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!.getAttribute('width')).toBe('640');
    const fill = block('Wide', FRAME.replace('height="360"', 'height="256"'));
    mountBlock(fill, { mode: 'fill' })!.show({ focus: false, muted: false });
    expect(fill.querySelector<HTMLElement>('.video-wrapper')!.style.paddingBottom).toBe('56.3%');
    const frame = fill.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!;
    expect(frame.style.height).toBe('100%');
    expect(Number.parseFloat(frame.style.width)).toBeCloseTo(140.75);
  });

  it('autoplays muted only when motion is allowed', () => {
    const reduced = (matches: boolean) => vi.spyOn(window, 'matchMedia').mockReturnValue({ matches } as MediaQueryList);
    window.matchMedia ??= (() => ({ matches: false })) as never;
    reduced(false);
    const el = block();
    expect(mountBlock(el, { autoplay: true })!.showing).toBe(true);
    expect(new URL(el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!.src).searchParams.get('mute')).toBe('1');
    expect(document.activeElement).not.toBe(el.querySelector('iframe'));

    reduced(true);
    expect(mountBlock(block(), { autoplay: true })!.showing).toBe(false);
  });

  it('never autoplays under nomotion=true', () => {
    const win = { location: { search: '?nomotion=true' }, matchMedia: () => ({ matches: false }), console } as unknown as Window;
    expect(motionAllowed(win)).toBe(false);
    expect(mountBlock(block(), { autoplay: true }, win)!.showing).toBe(false);
    const free = { location: { search: '?nomotion=false' }, matchMedia: () => ({ matches: false }) } as unknown as Window;
    expect(motionAllowed(free)).toBe(true);
  });

  it('starts a video without an overlay when it autoplays', () => {
    window.matchMedia ??= (() => ({ matches: false })) as never;
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: false } as MediaQueryList);
    const el = block();
    mountBlock(el, { overlay: false, autoplay: true });
    const src = new URL(el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!.src);
    expect(src.searchParams.get('autoplay')).toBe('1');
    expect(src.searchParams.get('mute')).toBe('1');
  });

  it('shows the video at once, unstarted, without an overlay', () => {
    const el = block();
    const player = mountBlock(el, { overlay: false })!;
    expect(player.showing).toBe(true);
    expect(el.querySelector('.video-play')).toBeNull();
    expect(el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!.src).toBe('https://www.youtube-nocookie.com/embed/abc');
  });
});

describe('changing mode (001 §4 "Changing mode reloads the video")', () => {
  it('reloads a shown video behind its overlay, in the new mode’s box', () => {
    const el = block();
    const player = mountBlock(el, { mode: 'fit' })!;
    player.show({ focus: false, muted: false });
    const first = el.querySelector('.video-wrapper iframe');
    expect(first).not.toBeNull();
    expect(player.update({ html: FRAME, title: 'Clip', mode: 'fit' })).toBe(false);
    expect(el.querySelector('.video-wrapper iframe')).toBe(first);

    expect(player.update({ html: FRAME, title: 'Clip', mode: 'none' })).toBe(true);
    const wrapper = el.querySelector<HTMLElement>('.video-wrapper')!;
    expect(el.querySelector('.video-wrapper iframe')).toBeNull();
    expect(wrapper.querySelector<HTMLButtonElement>('button.video-play')!.hidden).toBe(false);
    expect(wrapper.className).toBe('video-wrapper video-wrapper--none');
    expect(wrapper.style.paddingBottom).toBe('');
    player.show({ focus: false, muted: false });
    expect(el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!.style.width).toBe('');
  });

  it('reloads a video without an overlay as a new player, in place and unstarted', () => {
    const el = block('Wide', FRAME.replace('height="360"', 'height="256"'));
    const player = mountBlock(el, { overlay: false, mode: 'fit' })!;
    const first = el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!;
    expect(el.querySelector<HTMLElement>('.video-wrapper')!.style.paddingBottom).toBe('40%');
    expect(player.update({ html: FRAME, title: 'Wide', mode: 'fill' })).toBe(true);
    const second = el.querySelector<HTMLIFrameElement>('.video-wrapper iframe')!;
    expect(second).not.toBe(first);
    expect(first.isConnected).toBe(false);
    expect(el.querySelectorAll('.video-wrapper iframe')).toHaveLength(1);
    expect(second.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/abc');
    expect(el.querySelector<HTMLElement>('.video-wrapper')!.style.paddingBottom).toBe('56.3%');
    expect(player.mode).toBe('fill');
  });

  it('hears the block-data event of its block', async () => {
    const { mount, BLOCK_DATA_EVENT } = await import('./index');
    const el = block();
    mounted.push(mount(el, { html: FRAME, title: 'Clip', overlay: false })!);
    const first = el.querySelector('.video-wrapper iframe');
    el.dispatchEvent(new CustomEvent(BLOCK_DATA_EVENT, { detail: { html: FRAME, title: 'Clip', overlay: false, mode: 'fill' } }));
    expect(el.querySelector('.video-wrapper')!.className).toContain('video-wrapper--fill');
    expect(el.querySelector('.video-wrapper iframe')).not.toBe(first);
  });
});

describe('object embeds', () => {
  const OBJECT =
    '<object data="https://www.youtube.com/v/abc" type="application/x-shockwave-flash" width="425" height="344" title="Old clip"><embed src="https://www.youtube.com/v/abc" type="application/x-shockwave-flash" width="425" height="344"></object>';

  it('plays an object embed behind the same overlay', () => {
    const el = block('Old clip', OBJECT);
    const player = mountVideo(window, el, { html: OBJECT, title: 'Old clip' })!;
    mounted.push(player);
    const wrapper = el.querySelector<HTMLElement>('.video-wrapper')!;
    expect(wrapper.style.paddingBottom).toBe(`${(344 / 425) * 100}%`);
    expect(wrapper.querySelector('button')!.getAttribute('aria-label')).toBe('Play Old clip');
    expect(el.querySelector('.video-wrapper object')).toBeNull();

    el.querySelector<HTMLButtonElement>('.video-play')!.click();
    const object = el.querySelector<HTMLObjectElement>('.video-wrapper > object')!;
    expect(player.showing).toBe(true);
    const data = new URL(object.getAttribute('data')!);
    expect(data.origin).toBe('https://www.youtube.com');
    expect(data.searchParams.get('autoplay')).toBe('1');
    expect(object.querySelector('embed')!.getAttribute('src')).toBe(object.getAttribute('data'));
    expect(document.activeElement).toBe(object);
    expect(el.querySelector<HTMLButtonElement>('.video-play')!.hidden).toBe(true);
  });

  it('returns an object embed to its overlay when another video shows', () => {
    const first = block('Old clip', OBJECT);
    const second = block('Two');
    const a = mountVideo(window, first, { html: OBJECT, title: 'Old clip' })!;
    mounted.push(a);
    const b = mountBlock(second, {})!;
    a.show({ focus: false, muted: false });
    b.show({ focus: false, muted: false });
    expect(a.showing).toBe(false);
    expect(first.querySelector('.video-wrapper object')).toBeNull();
    expect(first.querySelector<HTMLButtonElement>('.video-play')!.hidden).toBe(false);
  });

  it('warns for an object without an embed and builds no player', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const html = '<object data="https://www.youtube.com/v/abc"></object>';
    const el = block('Old clip', html);
    expect(mountVideo(window, el, { html, title: 'Old clip' })).toBeNull();
    expect(warn).toHaveBeenCalledWith(INVALID_VIDEO_EMBED);
    expect(el.querySelector('.video-play')).toBeNull();
  });
});
