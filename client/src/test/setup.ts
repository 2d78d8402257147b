// Test set-up: React's `act` needs to know it runs in a test environment.
declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}
globalThis.IS_REACT_ACT_ENVIRONMENT = true;
export {};

// jsdom does not scroll: `window.scrollTo` only reports "Not implemented". Page scrolls (the
// form's message, 001 §9) are checked by spying on it; elsewhere it does nothing.
if (typeof window !== 'undefined') window.scrollTo = (() => {}) as typeof window.scrollTo;
