// The live error stream: errors per hour over the last 24 hours, and errors grouped by
// fingerprint with their count, their last 24 hours, first and last seen, where they come
// from and the latest stack.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { Announcer, useSummaryAnnouncer } from '../../components/announcer';
import { Sparkline } from '../../components/chart/sparkline';
import { TimeChart } from '../../components/chart/time-chart';
import { LoadError } from '../../components/load-error';
import { RelativeTime } from '../../components/relative-time';
import { StreamStatusLine } from '../../streams/stream-status';
import { useLiveStream, type LiveStreamTransport } from '../../streams/use-live-stream';
import {
  ERROR_HOURS_KEY,
  ERROR_HOURS_REFRESH_MS,
  ERRORS_KEY,
  fetchErrorHours,
  fetchErrors,
  groupOfEvent,
  location,
  upsertGroup,
  type ErrorHoursReport,
  type ErrorList,
} from './errors';

/** How long after a new error record the list is read again for its stack. */
const STACK_REFRESH_MS = 1_500;

const summary = (n: number) => (n === 1 ? '1 error update' : `${n} error updates`);

/** The chart of all errors per hour, named by its total and busiest hour. */
function ErrorHoursChart({ report }: { report: ErrorHoursReport }) {
  const chart = useMemo(() => {
    const values = report.points.map((p) => p.errors);
    const total = values.reduce((a, b) => a + b, 0);
    const busiest = report.points.reduce((a, b) => (b.errors > a.errors ? b : a), report.points[0] ?? { start: 0, errors: 0 });
    const summary =
      total === 0
        ? 'Last 24 hours: no errors.'
        : `Last 24 hours: ${total} errors; busiest hour ${new Date(busiest.start).toISOString().slice(11, 16)} UTC with ${busiest.errors}.`;
    return { times: report.points.map((p) => p.start), lines: [{ label: 'Errors', values, stroke: '#8a1c1c' }], summary };
  }, [report]);
  return <TimeChart times={chart.times} lines={chart.lines} unit="hour" summary={chart.summary} caption="Errors per hour (UTC)" height={120} />;
}

/** The errors panel; `transport` replaces the websocket in tests. */
export function ErrorsPanel({ transport }: { transport?: LiveStreamTransport }) {
  const queryClient = useQueryClient();
  const { data, error, isPending, refetch } = useQuery({ queryKey: ERRORS_KEY, queryFn: ({ signal }) => fetchErrors(signal) });
  const hours = useQuery({
    queryKey: ERROR_HOURS_KEY,
    queryFn: ({ signal }) => fetchErrorHours(signal),
    refetchInterval: ERROR_HOURS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  // The list's failure first; the hourly counts' when only they failed.
  const failed = error ?? hours.error;
  const sparklines = new Map((hours.data?.groups ?? []).map((g) => [g.fingerprint, g.counts]));
  const { message, note } = useSummaryAnnouncer(summary);
  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (refresh.current) clearTimeout(refresh.current);
    },
    [],
  );
  const stream = useLiveStream(
    'errors',
    {
      onEvent(frame) {
        const group = groupOfEvent(frame.data);
        if (group) {
          const list = queryClient.getQueryData<ErrorList>(ERRORS_KEY);
          if (list) queryClient.setQueryData<ErrorList>(ERRORS_KEY, upsertGroup(list, group));
          else void queryClient.invalidateQueries({ queryKey: ERRORS_KEY });
          note();
        } else if (!refresh.current) {
          // A new record: its stack comes with the next read of the list.
          refresh.current = setTimeout(() => {
            refresh.current = null;
            void queryClient.invalidateQueries({ queryKey: ERRORS_KEY });
            void queryClient.invalidateQueries({ queryKey: ERROR_HOURS_KEY });
          }, STACK_REFRESH_MS);
        }
      },
      onReset() {
        // Drop what is cached and read the list again.
        void queryClient.resetQueries({ queryKey: ERRORS_KEY });
      },
    },
    transport,
  );
  const stacks = new Map<string, string>();
  for (const record of data?.records ?? []) {
    if (!stacks.has(record.fingerprint) && record.stack) stacks.set(record.fingerprint, record.stack);
  }
  return (
    <section aria-labelledby="errors-heading" className="panel">
      <div className="panel__head">
        <h2 id="errors-heading">Errors</h2>
        <StreamStatusLine stream={stream} />
      </div>
      <Announcer message={message} />
      {hours.data && <ErrorHoursChart report={hours.data} />}
      {failed && (
        <LoadError
          error={failed}
          onRetry={() => {
            if (error) void refetch();
            if (hours.error) void hours.refetch();
          }}
        />
      )}
      {isPending && !error && <p className="panel__empty">Reading the errors…</p>}
      {data && data.groups.length === 0 && <p className="panel__empty">No errors recorded.</p>}
      {data && data.groups.length > 0 && (
        <ol className="feed" aria-label="Error groups, most recently seen first">
          {data.groups.map((group) => (
            <li key={group.fingerprint} className="feed__item" data-fingerprint={group.fingerprint}>
              <p className="feed__title">{group.message || 'Error without a message'}</p>
              <dl className="facts">
                <dt>Where</dt>
                <dd>
                  <code>{location(group)}</code>
                </dd>
                <dt>Count</dt>
                <dd data-count>{group.count}</dd>
                <dt>Last 24 hours</dt>
                <dd>
                  <Sparkline counts={sparklines.get(group.fingerprint) ?? Array<number>(24).fill(0)} />
                </dd>
                <dt>First seen</dt>
                <dd>
                  <RelativeTime at={group.firstSeen} />
                </dd>
                <dt>Last seen</dt>
                <dd>
                  <RelativeTime at={group.lastSeen} /> on <code>{group.lastUrl}</code>
                </dd>
              </dl>
              <details>
                <summary>Stack</summary>
                <pre className="stack">{stacks.get(group.fingerprint) ?? 'No stack among the recent records.'}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
