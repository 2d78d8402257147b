// The relative-times hook: a page with `time[data-relative]` elements (blog post dates)
// imports the relative-time chunk, which refreshes them every 5 s and gives each its full
// date in a tooltip (spec 001 §4, §9). Other pages fetch nothing.

type RelativeTimeChunk = typeof import('../widgets/relative-time/index');

const importChunk = (): Promise<RelativeTimeChunk> => import('../widgets/relative-time/index');

/** Starts the relative times of `win`'s page when it has any; says whether it had. */
export function watchRelativeTimes(win: Window, load = importChunk): boolean {
  const doc = win.document;
  if (!doc.querySelector('time[data-relative]')) return false;
  void load().then(
    (m) => m.startRelativeTimes(doc, doc.documentElement.lang || undefined),
    (error: unknown) => console.error('Veranda: the relative times could not start.', error),
  );
  return true;
}
