// The dashboard's configuration, read once from the server-rendered shell.

/** What the dashboard needs from its shell. */
export interface DashboardConfig {
  /** Same-site path shown in the preview frame. */
  frameUrl: string;
}

/** Reads `data-frame-url`; anything but a same-site path falls back to `/`. */
export function readConfig(root: HTMLElement): DashboardConfig {
  const frameUrl = root.dataset.frameUrl ?? '';
  const sameSite = frameUrl.startsWith('/') && !frameUrl.startsWith('//') && !frameUrl.startsWith('/\\');
  return { frameUrl: sameSite ? frameUrl : '/' };
}
