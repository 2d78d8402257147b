// The relative-times hook: a page with `time[data-relative]` elements (blog post dates)
// imports the relative-time chunk, which refreshes them every 5 s and gives each its full
// date in a tooltip (spec 001 §4, §9). Other pages fetch nothing.

type RelativeTimeChunk = typeof import('../widgets/relative-time/index');

const importChunk = (): Promise<RelativeTimeChunk> => import('../widgets/relative-time/index');

/** Starts the relative times of `win`'s page when it has any. */
export function watchRelativeTimes(win: Window, load = importChunk): void {
  if (win.document.querySelector('time[data-relative]')) void load().then((m) => m.start(win.document), () => {});
}
