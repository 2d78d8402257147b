// Where to go after signing in: a path on this site only (never `//host`, `/\host`, a scheme).

/** Whether `value` is a path on this site. */
export function isSameSitePath(value: string): boolean {
  return (
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !value.includes('\\') &&
    // Control characters would let a browser read `/\t/host` as `//host`.
    ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  );
}

/** The return path a login link names (`returnUrl` or `redirect`), else the current page. */
export function returnPathOf(link: Element | null, location: Location): string {
  const current = location.pathname + location.search;
  const href = link?.getAttribute('href');
  if (!href) return current;
  let params: URLSearchParams;
  try {
    params = new URL(href, location.href).searchParams;
  } catch {
    return current;
  }
  const named = params.get('returnUrl') ?? params.get('redirect');
  return named !== null && isSameSitePath(named) ? named : current;
}
