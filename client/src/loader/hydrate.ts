// Finds the `[data-island]` elements of a page and mounts each island once, when its
// element becomes visible or is first interacted with, whichever comes first.
import type { IslandImport } from './islands';
import { onInteraction } from './strategies/interaction';
import { onVisible } from './strategies/visible';
import { REPORTS_OWN_DATA_ERRORS, UNDECODABLE } from './undecodable';
import { runtimeLog } from './telemetry/runtime-log';

/** Marks an element's island progress: `loading`, `mounted` or `failed`. */
export const STATE_ATTRIBUTE = 'data-island-state';

/** The outcome of reading a block's `data-block-json`. */
type BlockData = { ok: true; data: unknown } | { ok: false };

/**
 * Reads a block's data; a missing attribute is `null` data. Bad JSON is a warning, except
 * for islands that report their own data errors: they get {@link UNDECODABLE}.
 */
export function readBlockData(el: HTMLElement): BlockData {
  const raw = el.getAttribute('data-block-json');
  if (raw === null) return { ok: true, data: null };
  try {
    return { ok: true, data: JSON.parse(raw) as unknown };
  } catch (error) {
    if (REPORTS_OWN_DATA_ERRORS.has(el.dataset.island ?? '')) return { ok: true, data: UNDECODABLE };
    const message = `Veranda: ${el.id || el.dataset.island} has invalid data-block-json; left as is.`;
    runtimeLog('warn', 'block-data-undecodable', message, error);
    return { ok: false };
  }
}

/**
 * Watches every island element under `root`; returns how many were set up. Each watcher's stop
 * function is pushed onto `watchers` when given, so the page's destroy can stop them.
 */
export function hydrateIslands(
  root: ParentNode,
  registry: Readonly<Record<string, IslandImport>>,
  watchers?: Array<() => void>,
): number {
  let count = 0;
  root.querySelectorAll<HTMLElement>('[data-island]').forEach((el) => {
    const kind = el.dataset.island ?? '';
    const load = Object.hasOwn(registry, kind) && registry[kind];
    if (!load) return;
    const block = readBlockData(el);
    if (!block.ok) return;
    count += 1;
    let started = false;
    const stops: Array<() => void> = [];
    const start = () => {
      if (started) return;
      started = true;
      stops.forEach((stop) => stop());
      el.setAttribute(STATE_ATTRIBUTE, 'loading');
      load()
        .then((island) => {
          island.mount(el, block.data);
          el.setAttribute(STATE_ATTRIBUTE, 'mounted');
        })
        .catch((error: unknown) => {
          el.setAttribute(STATE_ATTRIBUTE, 'failed');
          runtimeLog('error', 'island-failed', `Veranda: the ${kind} island could not start.`, error);
        });
    };
    stops.push(onVisible(el, start), onInteraction(el, start));
    // `onVisible` may have started already (no IntersectionObserver): stop the rest.
    if (started) stops.forEach((stop) => stop());
    else watchers?.push(() => stops.forEach((stop) => stop()));
  });
  return count;
}
