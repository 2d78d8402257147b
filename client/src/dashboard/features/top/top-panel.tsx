// The most viewed pages and the sites that sent the most visitors, over 24 hours or 30 days.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { KeyCount } from '../../../generated/types';
import { LoadError } from '../../components/load-error';
import { RangePicker } from '../../components/range-picker';
import { fetchTop, TOP_REFRESH_MS, topKey, type StatsRange } from './top';

function KeyTable({ caption, keyName, rows, code }: { caption: string; keyName: string; rows: KeyCount[]; code: boolean }) {
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="top-list">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{keyName}</th>
            <th scope="col" className="num">
              Page views
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={2} className="muted">
                None in this range.
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.key}>
                <th scope="row">{code ? <code>{row.key}</code> : row.key}</th>
                <td className="num">{row.count.toLocaleString('en')}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** The top pages and referrers panel. */
export function TopPanel() {
  const [range, setRange] = useState<StatsRange>('24h');
  const { data, error, refetch } = useQuery({
    queryKey: topKey(range),
    queryFn: ({ signal }) => fetchTop(range, signal),
    refetchInterval: TOP_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  return (
    <section aria-labelledby="top-heading" className="panel">
      <div className="panel__head">
        <h2 id="top-heading">Top pages and referrers</h2>
        <RangePicker value={range} onChange={setRange} label="Top lists range" />
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {data ? (
        <>
          <KeyTable caption="Top pages" keyName="Page" rows={data.pages} code />
          <KeyTable caption="Top referrers" keyName="Site" rows={data.referrers} code={false} />
        </>
      ) : (
        !error && <p className="panel__empty">Loading…</p>
      )}
    </section>
  );
}
