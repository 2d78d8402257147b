// 001 §8: the video messages meant for the owner go to the console, word for word, only
// where they apply; the visitor's page is unchanged by them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INVALID_VIDEO_EMBED } from './embed';
import { CUSTOM_FEATURED_IMAGES, VIMEO_BASIC_UNSUPPORTED, isVimeoRefusal } from './owner-messages';
import { mountVideo, type VideoPlayer } from './video';

const VIMEO = '<iframe src="https://player.vimeo.com/video/76979871" title="Clip" width="640" height="360"></iframe>';
const YOUTUBE = '<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Clip" width="640" height="360"></iframe>';
const FEATURED = 'Custom featured images only available with embedded videos. Go back into embed settings to turn off featured images.';
const BASIC = 'Vimeo Basic accounts are unsupported. Please share a video from a different account.';

function block(frame: string): HTMLElement {
  const section = document.createElement('section');
  section.innerHTML = `<figure class="video"><a href="https://video.example/1"><img class="video-poster" src="/images/p.png" alt=""><span class="video-title">Watch “Clip”</span></a><template class="video-embed">${frame}</template></figure>`;
  document.body.append(section);
  return section;
}

const mounted: VideoPlayer[] = [];
afterEach(() => {
  mounted.splice(0).forEach((p) => p.destroy());
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** Has the shown player's iframe in `el` answer `data` from `origin`. */
function answer(el: HTMLElement, data: unknown, origin = 'https://player.vimeo.com') {
  const frame = el.querySelector('iframe')!;
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: frame.contentWindow }));
  return frame;
}

describe('owner-facing video messages', () => {
  it('are the spec wording', () => {
    expect(CUSTOM_FEATURED_IMAGES).toBe(FEATURED);
    expect(VIMEO_BASIC_UNSUPPORTED).toBe(BASIC);
  });

  it('warn of a featured image on a video that is not embedded, after the invalid-embed warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = block('');
    expect(mountVideo(window, el, { html: '', title: 'Clip', thumbnail: 'poster.png' })).toBeNull();
    expect(warn.mock.calls).toEqual([[INVALID_VIDEO_EMBED], [FEATURED]]);
    // The visitor sees the error state and the link, as for any invalid embed, not this message.
    expect(el.textContent).not.toContain('featured');
  });

  it('say nothing of featured images for an embedded video, or an invalid one without a featured image', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const player = mountVideo(window, block(YOUTUBE), { html: YOUTUBE, title: 'Clip', thumbnail: 'poster.png' });
    mounted.push(player!);
    mountVideo(window, block(''), { html: '<p>no video</p>', title: 'Clip', thumbnail: '  ' });
    expect(warn.mock.calls).toEqual([[INVALID_VIDEO_EMBED]]);
  });

  it('warn once when the shown Vimeo player refuses to play here', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = block(VIMEO);
    const player = mountVideo(window, el, { html: VIMEO, title: 'Clip' })!;
    mounted.push(player);
    player.show({ focus: false, muted: false });
    const refusal = JSON.stringify({ event: 'error', data: { method: 'play', name: 'PrivacyError', message: 'Because of its privacy settings, this video cannot be played here.' } });
    answer(el, refusal);
    answer(el, JSON.parse(refusal));
    expect(warn.mock.calls).toEqual([[BASIC]]);
    expect(el.textContent).not.toContain('Vimeo Basic');
  });

  it('ignore other answers, other senders and players no longer shown', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const refusal = { event: 'error', data: { name: 'PrivacyError' } };
    expect(isVimeoRefusal('https://player.vimeo.com', { event: 'ready' })).toBe(false);
    expect(isVimeoRefusal('https://player.vimeo.com', { event: 'error', data: { name: 'RangeError' } })).toBe(false);
    expect(isVimeoRefusal('https://evil.example', refusal)).toBe(false);
    expect(isVimeoRefusal('https://player.vimeo.com', '{not json')).toBe(false);
    expect(isVimeoRefusal('https://player.vimeo.com', refusal)).toBe(true);

    const el = block(VIMEO);
    const player = mountVideo(window, el, { html: VIMEO, title: 'Clip' })!;
    mounted.push(player);
    player.show({ focus: false, muted: false });
    // Another window sending the same words is not this player.
    window.dispatchEvent(new MessageEvent('message', { data: refusal, origin: 'https://player.vimeo.com', source: window }));
    const frame = el.querySelector('iframe')!;
    const gone = frame.contentWindow;
    player.reset();
    window.dispatchEvent(new MessageEvent('message', { data: refusal, origin: 'https://player.vimeo.com', source: gone }));
    expect(warn).not.toHaveBeenCalled();
  });
});
