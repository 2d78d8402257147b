// Form submissions: each form of the site with how many submissions it holds, the latest
// one's time, and the CSV export.
import { useQuery } from '@tanstack/react-query';
import { LoadError } from '../../components/load-error';
import { RelativeTime } from '../../components/relative-time';
import { csvHref, fetchForms, fetchSubmissions, FORMS_KEY, submissionsKey, type FormSummary } from './forms';

/** How often the submission counts are read again while the dashboard is open. */
const REFRESH_MS = 60_000;

function FormRow({ form }: { form: FormSummary }) {
  const { data, error, refetch } = useQuery({
    queryKey: submissionsKey(form.formId),
    queryFn: ({ signal }) => fetchSubmissions(form.formId, signal),
    refetchInterval: REFRESH_MS,
  });
  const name = form.title || form.formId;
  const latest = data?.submissions[0];
  return (
    <li className="feed__item">
      <p className="feed__title">{name}</p>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>
          {form.kind === 'newsletter' ? 'Newsletter' : 'Form'} <code>{form.formId}</code>
        </dd>
        <dt>Submissions</dt>
        <dd>{error ? <LoadError error={error} onRetry={() => void refetch()} /> : data ? data.submissions.length : '…'}</dd>
        <dt>Latest</dt>
        <dd>{latest ? <RelativeTime at={latest.submittedAt} /> : data ? 'none yet' : '…'}</dd>
      </dl>
      <a href={csvHref(form.formId)} download>
        Export {name} as CSV
      </a>
    </li>
  );
}

/** The form submissions panel. */
export function FormsPanel() {
  const { data, error, isPending, refetch } = useQuery({ queryKey: FORMS_KEY, queryFn: ({ signal }) => fetchForms(signal) });
  return (
    <section aria-labelledby="forms-heading" className="panel">
      <div className="panel__head">
        <h2 id="forms-heading">Form submissions</h2>
      </div>
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {isPending && !error && <p className="panel__empty">Reading the forms…</p>}
      {data && data.length === 0 && <p className="panel__empty">This site has no forms.</p>}
      {data && data.length > 0 && (
        <ul className="feed">
          {data.map((form) => (
            <FormRow key={form.formId} form={form} />
          ))}
        </ul>
      )}
    </section>
  );
}
