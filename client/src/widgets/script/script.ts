// Loads a third-party script once, giving up after a timeout (the social follow widget
// script of spec 001 §7 is given 10 s; the restaurant booking widgets use it too).

/** How long the social follow widget script may take to load. */
export const FOLLOW_SCRIPT_TIMEOUT_MS = 10_000;

/** Loads of each script URL, so a script is added to the page once. */
const loads = new Map<string, Promise<void>>();

/**
 * Runs `then` once `doc`'s page has loaded, at once if it has. A script added before that
 * holds the page's load event back until it arrives, so a third-party server that is slow
 * or never answers would keep the page "loading" in the browser for as long.
 */
function afterPageLoad(doc: Document, then: () => void): void {
  const win = doc.defaultView;
  if (doc.readyState === 'complete' || !win) then();
  else win.addEventListener('load', () => then(), { once: true });
}

/**
 * Adds `<script async src=url>` to `parent` (the head of `doc` unless given: a widget script
 * that draws where it stands goes inside its block) once the page has loaded, and resolves
 * once the script has loaded; rejects when it fails or has not loaded `timeoutMs` after it
 * was added (a script that failed or timed out may be tried again later).
 */
export function loadScript(doc: Document, url: string, timeoutMs: number, parent: ParentNode = doc.head): Promise<void> {
  const known = loads.get(url);
  if (known) return known;
  const load = new Promise<void>((resolve, reject) => {
    const script = doc.createElement('script');
    script.async = true;
    script.src = url;
    let timer: ReturnType<typeof setTimeout> | undefined;
    script.addEventListener('load', () => {
      clearTimeout(timer);
      resolve();
    });
    script.addEventListener('error', () => {
      clearTimeout(timer);
      script.remove();
      reject(new Error(`Could not load ${url}`));
    });
    afterPageLoad(doc, () => {
      timer = setTimeout(() => {
        script.remove();
        reject(new Error(`Timed out loading ${url}`));
      }, timeoutMs);
      parent.append(script);
    });
  });
  loads.set(url, load);
  load.catch(() => loads.delete(url));
  return load;
}
