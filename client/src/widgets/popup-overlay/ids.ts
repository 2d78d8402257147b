// The popup overlay's id namespace. The server renders the overlay's copy of its form
// block with `popup-overlay-` before the block id (`block-popup-overlay-<id>`, and every
// id inside derived from it), so a page that shows the same block itself (the newsletter
// on `/contact`) never has an element id twice and each label names its own input.

/** What the overlay's copy of a block puts before the block id. */
export const OVERLAY_ID_PREFIX = 'popup-overlay-';

/** The block id a form's block id stands for: the same, without the overlay's namespace. */
export function siteBlockId(blockId: string): string {
  return blockId.startsWith(OVERLAY_ID_PREFIX) ? blockId.slice(OVERLAY_ID_PREFIX.length) : blockId;
}
