// Hydration strategy: load when the element comes within 200px of the viewport.
// Without IntersectionObserver, load at once. Returns a function that stops watching.
export function onVisible(el: Element, load: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    load();
    return () => {};
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        load();
      }
    },
    { rootMargin: '200px' },
  );
  observer.observe(el);
  return () => observer.disconnect();
}
