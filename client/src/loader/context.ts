// The page context the server embeds in `<script id="page-context" type="application/json">`.
import type { ContributorRole, PageContext } from '../generated/types';

/** The id of the script element that carries the page context. */
export const PAGE_CONTEXT_ID = 'page-context';

/**
 * Reads the page context from `doc`. A page without one gives `null`; a context that
 * is not a JSON object is reported with `console.warn` and also gives `null`.
 */
export function readPageContext(doc: Document): PageContext | null {
  const script = doc.getElementById(PAGE_CONTEXT_ID);
  if (!script) return null;
  let value: unknown = null;
  try {
    value = JSON.parse(script.textContent ?? '');
  } catch {
    // Reported below, like any other value that is not an object.
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as PageContext;
  console.warn('Veranda: the page context is not a JSON object; ignored.');
  return null;
}

/**
 * Whether the signed-in account holds `role` on this site: `websiteRoles` is the website
 * roles map (spec 001 §6), each held role id mapped to `true`.
 */
export function hasWebsiteRole(context: PageContext | null | undefined, role: ContributorRole): boolean {
  return context?.websiteRoles?.[role] === true;
}
