// uPlot and its style sheet, fetched the first time a chart is drawn (a chunk of the dashboard only).
import type uPlot from 'uplot';

let loading: Promise<typeof uPlot> | undefined;

/** The uPlot constructor, imported once. */
export function loadUplot(): Promise<typeof uPlot> {
  loading ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([module]) => module.default);
  return loading;
}
