// The relative-time chunk the loader imports on pages with `time[data-relative]` elements.
export { startRelativeTimes } from './relative-time';
