// Test set-up shared by the gallery's vitest files: each test runs with fake timers, no
// media query matching (no reduced motion, not a phone) and, when given, the page at
// `path`; afterwards timers, globals and mocks are restored and the body emptied.
import { afterEach, beforeEach, vi } from 'vitest';

/** Registers the set-up and clean-up around every test of the calling file or block. */
export function useGalleryTestPage(path?: string): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    if (path) window.history.replaceState(null, '', path);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.body.replaceChildren();
  });
}
