// What an island that reports its own data errors is mounted with when its block's
// `data-block-json` is not JSON (the gallery logs 001 §8's message and keeps its server
// layout); every other island is left as the server drew it, with the loader's warning.

/** The data of a block whose JSON could not be decoded (one symbol, shared by every chunk). */
export const UNDECODABLE = Symbol.for('veranda.undecodable-block-data');

/** Islands mounted with {@link UNDECODABLE} instead of being skipped. */
export const REPORTS_OWN_DATA_ERRORS: ReadonlySet<string> = new Set(['gallery']);
