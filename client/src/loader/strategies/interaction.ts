// Hydration strategy: load on the first focus or pointer entering the element.
// Returns a function that stops listening.
const EVENTS = ['focusin', 'pointerenter'] as const;

export function onInteraction(el: Element, load: () => void): () => void {
  const stop = () => EVENTS.forEach((name) => el.removeEventListener(name, handle));
  const handle = () => {
    stop();
    load();
  };
  EVENTS.forEach((name) => el.addEventListener(name, handle, { passive: true }));
  return stop;
}
