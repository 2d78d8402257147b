// The site's forms (`GET /api/form/forms`) and their stored submissions (`GET /api/form/submissions`).
import { getJson } from '../../api/http';
import type { FormSummary } from '../../../generated/types';

/** One stored submission (only the fields the panel shows). */
export interface Submission {
  /** When it was stored (unix ms). */
  submittedAt: number;
}

/** The JSON export of one form. */
export interface SubmissionList {
  /** The form. */
  formId: string;
  /** Newest first. */
  submissions: Submission[];
}

/** The query key of the form list. */
export const FORMS_KEY = ['forms'] as const;

/** The query key of one form's submissions. */
export const submissionsKey = (formId: string) => ['forms', formId, 'submissions'] as const;

/** Reads the form list. */
export async function fetchForms(signal?: AbortSignal): Promise<FormSummary[]> {
  return (await getJson<{ forms: FormSummary[] }>('/api/form/forms', signal)).forms;
}

/** Reads one form's submissions. */
export function fetchSubmissions(formId: string, signal?: AbortSignal): Promise<SubmissionList> {
  return getJson<SubmissionList>(`/api/form/submissions?${new URLSearchParams({ formId })}`, signal);
}

/** The CSV export of one form. */
export function csvHref(formId: string): string {
  return `/api/form/submissions?${new URLSearchParams({ formId, format: 'csv' })}`;
}

export type { FormSummary };
