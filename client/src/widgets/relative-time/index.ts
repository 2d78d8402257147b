// The relative-time chunk the loader imports on pages with `time[data-relative]` elements.
import { startRelativeTimes } from './relative-time';

/** Keeps the page's relative times up to date, in the page's language. */
export function start(doc: Document): () => void {
  return startRelativeTimes(doc, doc.documentElement.lang || undefined);
}
