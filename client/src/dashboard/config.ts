// The dashboard's configuration, read once from the server-rendered shell.

/** A live panel of the dashboard. */
export type PanelName = 'edits' | 'errors' | 'forms' | 'visitors' | 'vitals' | 'orders';

const PANELS: readonly PanelName[] = ['edits', 'errors', 'forms', 'visitors', 'vitals', 'orders'];

/** What the dashboard needs from its shell. */
export interface DashboardConfig {
  /** Same-site path shown in the preview frame. */
  frameUrl: string;
  /** The live panels the account may see (`data-panels`), in display order. */
  panels: PanelName[];
  /** Whether anyone is signed in (`data-signed-in`). */
  signedIn: boolean;
}

/** Reads `data-frame-url` (anything but a same-site path falls back to `/`), `data-panels` and `data-signed-in`. */
export function readConfig(root: HTMLElement): DashboardConfig {
  const frameUrl = root.dataset.frameUrl ?? '';
  const sameSite = frameUrl.startsWith('/') && !frameUrl.startsWith('//') && !frameUrl.startsWith('/\\');
  const named = new Set((root.dataset.panels ?? '').split(/\s+/));
  return {
    frameUrl: sameSite ? frameUrl : '/',
    panels: PANELS.filter((p) => named.has(p)),
    signedIn: root.dataset.signedIn === 'true',
  };
}
