// Logging out (spec 000 §4, §7): `DELETE /api/site-users/account/session?cloneCart=false`
// through the data layer, which repeats the call once when the server answers `crumbFail`.
// Then the page goes to the landing `/?logout=true`, where the 'Logout Successful' dialog
// opens modally (see `logout-dialog.ts`). The call is watched as a generic fetch state
// (`data/fetch-state.ts`): a failure is kept in it and logged.
import { startFetch } from '../data/fetch-state';
import { dataRequest } from '../data/index';

/** The sign-out call. */
export const LOGOUT_URL = '/api/site-users/account/session?cloneCart=false';
/** Where a sign-out lands. */
export const LOGOUT_LANDING = '/?logout=true';

/** What logging out needs from outside (replaced in tests). */
export interface LogoutDeps {
  request: typeof dataRequest;
  navigate: (path: string) => void;
}

let pending: Promise<boolean> | null = null;

/**
 * Logs out and goes to the landing page; resolves `false` (and logs) when the call failed.
 * A second call while one is under way joins it.
 */
export function logOut(win: Window, deps?: Partial<LogoutDeps>): Promise<boolean> {
  const request = deps?.request ?? dataRequest;
  const navigate = deps?.navigate ?? ((path: string) => win.location.assign(path));
  pending ??= startFetch(() => request({ url: LOGOUT_URL, method: 'DELETE' }), 'logging out').settled.then((state) => {
    pending = null;
    if (state.status !== 'success') return false;
    navigate(LOGOUT_LANDING);
    return true;
  });
  return pending;
}
