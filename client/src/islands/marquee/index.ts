// The marquee widget: takes over a marquee block (no React). Motion follows the
// reduced-motion preference live, and `?nomotion=true` keeps it still.
import { Marquee } from './marquee';
import { marqueeProps } from './props';

/** Mounts the marquee in `el` with the block's data. */
export function mount(el: HTMLElement, data: unknown): void {
  const props = marqueeProps(data);
  if (props.text.trim() === '') return;
  const win = el.ownerDocument.defaultView ?? window;
  const query = win.matchMedia?.('(prefers-reduced-motion: reduce)');
  const nomotion = new URLSearchParams(win.location.search).get('nomotion') === 'true';
  const root = el.querySelector<HTMLElement>('.marquee') ?? el;
  const marquee = new Marquee(root, props, {
    reducedMotion: () => nomotion || (query?.matches ?? false),
    observeView(target, onChange) {
      if (typeof IntersectionObserver === 'undefined') {
        onChange(true);
        return () => {};
      }
      const observer = new IntersectionObserver((entries) => entries.forEach((e) => onChange(e.isIntersecting)));
      observer.observe(target);
      return () => observer.disconnect();
    },
  });
  query?.addEventListener?.('change', () => marquee.update());
  win.addEventListener('resize', () => marquee.resized());
}
