// The two windows of the dashboard's charts and top lists, as a pair of toggle buttons.
import type { StatsRange } from '../../generated/types';

const CHOICES: readonly [StatsRange, string][] = [
  ['24h', 'Last 24 hours'],
  ['30d', 'Last 30 days'],
];

/** Picks `24h` or `30d`; `label` names the group. */
export function RangePicker({ value, onChange, label }: { value: StatsRange; onChange: (range: StatsRange) => void; label: string }) {
  return (
    <div role="group" aria-label={label} className="range-picker">
      {CHOICES.map(([range, text]) => (
        <button key={range} type="button" aria-pressed={value === range} onClick={() => onChange(range)}>
          {text}
        </button>
      ))}
    </div>
  );
}
