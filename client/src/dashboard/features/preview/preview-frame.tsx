// The site preview: the page being configured, in a frame. A gallery slide's click-through
// in the frame does not navigate it; its page posts the url here (001 §4, see
// `islands/gallery/click-through.ts`), and a link within the site opens in the preview.
// A link to another site stays unfollowed: the preview shows this site only.
import { useEffect, useRef } from 'react';

/** The message a framed page posts for a slide's click-through. */
const CLICK_THROUGH_MESSAGE = 'veranda:gallery-click-through';

export function PreviewFrame({ url }: { url: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const el = frame.current;
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (!el || event.source !== el.contentWindow || event.origin !== window.location.origin) return;
      if (data?.type !== CLICK_THROUGH_MESSAGE || typeof data.url !== 'string') return;
      try {
        const target = new URL(data.url, window.location.href);
        if (target.origin === window.location.origin) el.src = target.pathname + target.search + target.hash;
      } catch {
        // Not a url: nothing to follow.
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return (
    <section aria-labelledby="preview-heading" className="dashboard__preview">
      <h2 id="preview-heading">
        Previewing <a href={url}>{url}</a>
      </h2>
      <iframe ref={frame} title="Site preview" src={url} style={{ width: '100%', height: '70vh', border: '1px solid #ccc' }} />
    </section>
  );
}
