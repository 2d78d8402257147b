// Video items of the lightbox (001 §3 `videoLoaderOptions`, §9). A video item shows its
// poster until it is the current item; then the video loader puts the player's iframe in
// its place, sized to fit the window at the video's proportions. The loader waits for the
// item to be laid out (a lightbox fading in, or an item just shown, has no width yet),
// trying again every 10 ms up to 100 times; when it never gets one it logs the spec's
// 'VideoLoader not found' and the poster stays, linked to the player. The player is sized
// again 1000 ms after the window last changed size (the video reload resize timeout). An
// item that stops being current loses its player (the video stops) and gets it back when
// shown again.
import { VIDEO_LOADER_MISSING } from '../gallery/video-slides';
import { DEFAULT_PADDING_RATIO, playingSrc } from '../video/embed';

/** The video loader's timings (001 §9). */
export const VIDEO_LOADER = {
  /** The loader tries this many times to find the item laid out… */
  retries: 100,
  /** …this many ms apart. */
  retryMs: 10,
  /** The player is sized again this long after the window's last resize. */
  reloadResizeMs: 1000,
} as const;

/** A video item's player. */
export interface LightboxVideo {
  /** The player's iframe address. */
  src: string;
  /** The player's accessible name. */
  title: string;
}

/** How the lightbox's video loader treats its players (001 §3 `videoLoaderOptions`). */
export interface VideoLoaderOptions {
  /** Start the video when its item is shown (true by default: the visitor asked for it). */
  autoplay?: boolean;
  /** The player's height in percent of its width (56.3 by default, the video block's ratio). */
  ratio?: number;
}

/** The largest player of height `ratio` % of its width that fits `width` × `height` px. */
export function videoSize(width: number, height: number, ratio = DEFAULT_PADDING_RATIO): { width: number; height: number } {
  const r = ratio > 0 ? ratio / 100 : DEFAULT_PADDING_RATIO / 100;
  const w = height > 0 ? Math.min(width, height / r) : width;
  return { width: Math.max(0, Math.round(w)), height: Math.max(0, Math.round(w * r)) };
}

/** A video item's player, loading or loaded. */
export interface VideoPlayer {
  /** The iframe, once loaded. */
  readonly frame: HTMLIFrameElement | null;
  /** Sizes the player for the window again. */
  resize(): void;
  /** Stops loading, or removes the player (the poster comes back). */
  stop(): void;
}

/** Loads `video`'s player into `figure` (whose poster link it hides) once the figure has a width. */
export function loadVideo(win: Window, figure: HTMLElement, video: LightboxVideo, options: VideoLoaderOptions = {}): VideoPlayer {
  const doc = win.document;
  const poster = figure.querySelector<HTMLElement>('img, a');
  let frame: HTMLIFrameElement | null = null;
  let timer: number | undefined;
  let tries = 0;
  const resize = () => {
    if (!frame) return;
    // As large as the lightbox's content may be (92 % of the window's width, 80 % of its
    // height, as for images), leaving room for the controls and the caption.
    const size = videoSize(win.innerWidth * 0.92, win.innerHeight * 0.8, options.ratio);
    frame.width = String(size.width);
    frame.height = String(size.height);
  };
  const attempt = () => {
    tries += 1;
    if (figure.clientWidth > 0) {
      frame = doc.createElement('iframe');
      frame.className = 'lightbox-video';
      frame.title = video.title || 'Video';
      frame.allow = 'autoplay; fullscreen; picture-in-picture';
      frame.allowFullscreen = true;
      frame.src = options.autoplay === false ? video.src : playingSrc(video.src, false);
      if (poster) poster.hidden = true;
      figure.prepend(frame);
      resize();
      return;
    }
    if (tries >= VIDEO_LOADER.retries) {
      console.error(VIDEO_LOADER_MISSING);
      return;
    }
    timer = win.setTimeout(attempt, VIDEO_LOADER.retryMs);
  };
  attempt();
  return {
    get frame() {
      return frame;
    },
    resize,
    stop() {
      win.clearTimeout(timer);
      frame?.remove();
      frame = null;
      if (poster) poster.hidden = false;
    },
  };
}

/** The player of a gallery video slide around `link` (its `<template>`'s iframe), or null. */
export function videoOfLink(link: Element): LightboxVideo | null {
  const slide = link.closest('[data-type="video"]');
  const template = slide?.querySelector<HTMLTemplateElement>('template.gallery-video-embed');
  const iframe = template?.content.querySelector('iframe');
  const src = iframe?.getAttribute('src');
  return src ? { src, title: iframe?.getAttribute('title') ?? '' } : null;
}
