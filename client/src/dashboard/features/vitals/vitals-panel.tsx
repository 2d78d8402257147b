// Web-vitals p75 per page over the recent records, each rated good, needs improvement or poor,
// and every page's p75 over time.
import { useQuery } from '@tanstack/react-query';
import { LoadError } from '../../components/load-error';
import { VitalsOverTime } from './vitals-over-time';
import { fetchVitals, formatVital, rate, VITAL_NAMES, VITALS_KEY, VITALS_REFRESH_MS, type VitalName, type VitalSummary } from './vitals';

const LABELS: Record<VitalName, string> = { lcp: 'LCP', inp: 'INP', cls: 'CLS', fcp: 'FCP', ttfb: 'TTFB' };

const RATING_TEXT = { good: 'good', 'needs-improvement': 'needs improvement', poor: 'poor' } as const;

function Cell({ vital, summary }: { vital: VitalName; summary: VitalSummary | null }) {
  if (!summary) return <td>—</td>;
  const rating = rate(vital, summary.p75);
  return (
    <td data-rating={rating}>
      {formatVital(vital, summary.p75)} <span className="rating">({RATING_TEXT[rating]})</span>
    </td>
  );
}

/** The web-vitals panel. */
export function VitalsPanel() {
  const { data, error, refetch } = useQuery({
    queryKey: VITALS_KEY,
    queryFn: ({ signal }) => fetchVitals(signal),
    refetchInterval: VITALS_REFRESH_MS,
  });
  return (
    <section aria-labelledby="vitals-heading" className="panel panel--wide">
      <div className="panel__head">
        <h2 id="vitals-heading">Web vitals</h2>
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {!data ? (
        !error && <p className="panel__empty">Loading…</p>
      ) : data.pages.length === 0 ? (
        <p className="panel__empty">No web vitals recorded recently.</p>
      ) : (
        <div className="table-scroll" role="region" aria-label="Web vitals per page" tabIndex={0}>
          <table className="vitals">
            <caption>75th percentile per page over recent page loads</caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                {VITAL_NAMES.map((v) => (
                  <th key={v} scope="col">
                    {LABELS[v]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.pages.map((page) => (
                <tr key={page.path}>
                  <th scope="row">
                    <code>{page.path}</code>
                  </th>
                  {VITAL_NAMES.map((v) => (
                    <Cell key={v} vital={v} summary={page[v]} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <VitalsOverTime />
    </section>
  );
}
