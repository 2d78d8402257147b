// Loads a third-party script once, giving up after a timeout (the social follow widget
// script of spec 001 §7 is given 10 s; the restaurant booking widgets use it too).

/** How long the social follow widget script may take to load. */
export const FOLLOW_SCRIPT_TIMEOUT_MS = 10_000;

/** Loads of each script URL, so a script is added to the page once. */
const loads = new Map<string, Promise<void>>();

/**
 * Adds `<script async src=url>` to `parent` (the head of `doc` unless given: a widget script
 * that draws where it stands goes inside its block) and resolves once it has loaded; rejects
 * when it fails or has not loaded after `timeoutMs` (a script that failed or timed out may be
 * tried again later).
 */
export function loadScript(doc: Document, url: string, timeoutMs: number, parent: ParentNode = doc.head): Promise<void> {
  const known = loads.get(url);
  if (known) return known;
  const load = new Promise<void>((resolve, reject) => {
    const script = doc.createElement('script');
    script.async = true;
    script.src = url;
    const timer = setTimeout(() => {
      script.remove();
      reject(new Error(`Timed out loading ${url}`));
    }, timeoutMs);
    script.addEventListener('load', () => {
      clearTimeout(timer);
      resolve();
    });
    script.addEventListener('error', () => {
      clearTimeout(timer);
      script.remove();
      reject(new Error(`Could not load ${url}`));
    });
    parent.append(script);
  });
  loads.set(url, load);
  load.catch(() => loads.delete(url));
  return load;
}
