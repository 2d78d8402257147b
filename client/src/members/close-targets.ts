// Close targets: things the escape key closes first (an open menu, a lightbox). The most
// recently registered target is closed first; closing unregisters it.

/** Closes one open thing. */
export type CloseTarget = () => void;

const targets: CloseTarget[] = [];

/** Registers `target`; the returned function unregisters it (for when it closes itself). */
export function registerCloseTarget(target: CloseTarget): () => void {
  targets.push(target);
  return () => {
    const i = targets.lastIndexOf(target);
    if (i >= 0) targets.splice(i, 1);
  };
}

/** Closes the most recent target; returns whether there was one. */
export function closeTopTarget(): boolean {
  const target = targets.pop();
  if (!target) return false;
  target();
  return true;
}
