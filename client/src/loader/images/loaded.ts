// The image-loading promise (001 §8: "loading promises reject with 'No images' or 'No root
// node'"): it settles once every image under a root has loaded or failed, and rejects with
// those words when there is no root, or no image under it. Block animations wait on it.

/** The loading promise's rejections (001 §8), verbatim. */
export const IMAGE_LOADING_ERRORS = {
  noImages: 'No images',
  noRootNode: 'No root node',
} as const;

/** Resolves once every image under `root` has loaded or failed. */
export function imagesLoaded(root: ParentNode | null | undefined): Promise<void> {
  if (!root) return Promise.reject(new Error(IMAGE_LOADING_ERRORS.noRootNode));
  const images = [...root.querySelectorAll('img')];
  if (images.length === 0) return Promise.reject(new Error(IMAGE_LOADING_ERRORS.noImages));
  const waiting = images.filter((img) => !img.complete);
  return Promise.all(
    waiting.map(
      (img) =>
        new Promise<void>((done) => {
          img.addEventListener('load', () => done(), { once: true });
          img.addEventListener('error', () => done(), { once: true });
        }),
    ),
  ).then(() => undefined);
}
