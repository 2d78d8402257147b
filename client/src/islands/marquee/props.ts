// Marquee block props (spec 001 §3) with their defaults, and the numbers of §9: the
// region must be at least 50 px wide to run, a re-render waits 1,000 ms after the last
// resize, and the wave's segment is 250 to 1,000 px wide depending on its frequency.

/** Narrower regions do not scroll. */
export const MIN_REGION_WIDTH = 50;
/** Re-render debounce after a resize. */
export const RERENDER_DEBOUNCE_MS = 1000;
/** Pixels per second at speed 1. */
export const BASE_SPEED_PX_PER_S = 60;

/** The marquee's props, defaults filled in. */
export interface MarqueeProps {
  text: string;
  waveFrequency: number;
  waveIntensity: number;
  animationDirection: 'left' | 'right';
  animationSpeed: number;
  pausedOnHover: boolean;
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** Reads block data into props: waveFrequency 1, waveIntensity 0, left, speed 1, no pause by default. */
export function marqueeProps(data: unknown): MarqueeProps {
  const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  return {
    text: typeof d.text === 'string' ? d.text : '',
    waveFrequency: Math.max(0, num(d.waveFrequency, 1)),
    waveIntensity: Math.max(0, num(d.waveIntensity, 0)),
    animationDirection: d.animationDirection === 'right' ? 'right' : 'left',
    animationSpeed: Math.max(0.1, num(d.animationSpeed, 1)),
    pausedOnHover: d.pausedOnHover === true,
  };
}

/** The wave's segment width: 1,000 px at frequency ≤ 1, narrowing to 250 px at 4 and above. */
export function waveSegmentWidth(frequency: number): number {
  return Math.min(1000, Math.max(250, 1000 / Math.max(frequency, 1)));
}

/** The vertical offset (px) of a point `x` px along the text. */
export function waveOffset(x: number, props: Pick<MarqueeProps, 'waveFrequency' | 'waveIntensity'>): number {
  if (props.waveIntensity === 0 || props.waveFrequency === 0) return 0;
  return props.waveIntensity * Math.sin((2 * Math.PI * x) / waveSegmentWidth(props.waveFrequency));
}

/** Whether the marquee runs: in view, motion allowed, and wide enough. */
export function shouldRun(state: { inView: boolean; reducedMotion: boolean; width: number }): boolean {
  return state.inView && !state.reducedMotion && state.width >= MIN_REGION_WIDTH;
}
