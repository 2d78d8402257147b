// A stand-in for uPlot in jsdom (which has no canvas): records each chart made and destroyed.
import type uPlot from 'uplot';

/** A chart the stand-in made. */
export interface FakeChart {
  options: uPlot.Options;
  data: uPlot.AlignedData;
  target: HTMLElement;
  destroyed: boolean;
}

/** Every chart made since the last `reset`. */
export const charts: FakeChart[] = [];

/** The stand-in constructor. */
export class FakeUPlot {
  static tzDate = (date: Date) => date;
  readonly chart: FakeChart;
  constructor(options: uPlot.Options, data: uPlot.AlignedData, target: HTMLElement) {
    this.chart = { options, data, target, destroyed: false };
    charts.push(this.chart);
  }
  setSize() {}
  destroy() {
    this.chart.destroyed = true;
  }
}
