// The search block island (000 §9 "search preview" lazily loaded chunk). The server draws a
// plain GET form to `/search`, which works without script. A block with `preview` on gets
// results as the visitor types: 300 ms after the last keystroke the island reads the search
// page for the query (preview.ts) and lists its first hits under the field as links, with a
// polite count. ArrowDown moves from the field into the list, the arrows move through it,
// Escape closes it and goes back to the field. A block's `collection` limits the preview
// and the search page it submits to (the form carries it as `collection`). No React.
import * as motion from '../../widgets/animations/hide-show';
import { type PreviewHit, fetchHits } from './preview';
import './search.css';

/** The preview waits this long after the last keystroke. */
export const PREVIEW_DEBOUNCE_MS = 300;
/** 000 §8 interface string, shown when the results cannot be had. */
export const UNABLE_TO_LOAD_RESULTS = 'Unable to load results';

/** Numbers the previews of a page, so their ids never clash. */
let previews = 0;

/** The options the block data gives. */
function optionsOf(data: unknown): { preview: boolean; collection: string | null } {
  const d = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const collection = typeof d.collection === 'string' && d.collection.trim() !== '' ? d.collection.trim() : null;
  return { preview: d.preview === true, collection };
}

/** Takes over a search block's form. */
export function mount(el: HTMLElement, data: unknown): void {
  const { preview, collection } = optionsOf(data);
  const form = el.querySelector<HTMLFormElement>('form[role="search"]');
  const input = form?.querySelector<HTMLInputElement>('input[name="q"]');
  if (!form || !input) return;
  if (collection && !form.querySelector('input[name="collection"]')) {
    const hidden = el.ownerDocument.createElement('input');
    hidden.type = 'hidden';
    hidden.name = 'collection';
    hidden.value = collection;
    form.append(hidden);
  }
  if (preview) mountPreview(window, form, input, collection);
}

function mountPreview(win: Window, form: HTMLFormElement, input: HTMLInputElement, collection: string | null): void {
  const doc = win.document;
  const id = `search-preview-${(previews += 1)}`;
  const box = doc.createElement('div');
  box.className = 'search-preview';
  box.id = id;
  const status = doc.createElement('p');
  status.className = 'search-preview__status';
  status.setAttribute('role', 'status');
  const list = doc.createElement('ul');
  list.className = 'search-preview__results';
  list.setAttribute('aria-label', 'Search results');
  box.append(status, list);
  box.hidden = true;
  form.after(box);
  // A search field that opens a list of suggestions is a combobox (ARIA 1.2): only then
  // may it say whether the list is open.
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', id);
  input.setAttribute('aria-expanded', 'false');
  input.autocomplete = 'off';

  let timer: number | undefined;
  let request: AbortController | null = null;
  const show = (open: boolean) => {
    // The results fade in and out (000 §4); at once without motion.
    void (open ? motion.show(box, 'fade') : motion.hide(box, 'fade'));
    input.setAttribute('aria-expanded', String(open));
  };
  const draw = (query: string, hits: PreviewHit[]) => {
    list.replaceChildren(
      ...hits.map((hit) => {
        const li = doc.createElement('li');
        const a = doc.createElement('a');
        a.href = hit.url;
        a.textContent = hit.title || hit.url;
        li.append(a);
        if (hit.excerpt) {
          const p = doc.createElement('p');
          p.textContent = hit.excerpt;
          li.append(p);
        }
        return li;
      }),
    );
    status.textContent = hits.length === 0 ? `No results for "${query}"` : hits.length === 1 ? '1 result' : `${hits.length} results`;
    show(true);
  };
  const run = () => {
    const query = input.value.trim();
    request?.abort();
    request = null;
    if (query === '') {
      list.replaceChildren();
      status.textContent = '';
      show(false);
      return;
    }
    const controller = new AbortController();
    request = controller;
    fetchHits(query, collection, controller.signal, win.location.href)
      .then((hits) => {
        if (request === controller) draw(query, hits);
      })
      .catch((error: unknown) => {
        if (request !== controller || controller.signal.aborted) return;
        console.warn(error);
        list.replaceChildren();
        status.textContent = UNABLE_TO_LOAD_RESULTS;
        show(true);
      });
  };
  input.addEventListener('input', () => {
    win.clearTimeout(timer);
    timer = win.setTimeout(run, PREVIEW_DEBOUNCE_MS);
  });
  const links = () => Array.from(list.querySelectorAll('a'));
  const close = () => {
    win.clearTimeout(timer);
    request?.abort();
    request = null;
    // Back to the field first: its focus would open the preview again.
    input.focus();
    show(false);
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && !box.hidden && links()[0]) {
      event.preventDefault();
      links()[0]?.focus();
    } else if (event.key === 'Escape' && !box.hidden) {
      event.preventDefault();
      close();
    }
  });
  list.addEventListener('keydown', (event) => {
    const all = links();
    const at = all.indexOf(event.target as HTMLAnchorElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const to = at + (event.key === 'ArrowDown' ? 1 : -1);
      if (to < 0) input.focus();
      else all[Math.min(to, all.length - 1)]?.focus();
    }
  });
  // Leaving the block (focus elsewhere) closes the preview.
  const block = form.parentElement ?? form;
  block.addEventListener('focusout', (event) => {
    const next = event.relatedTarget as Node | null;
    if (next && block.contains(next)) return;
    show(false);
  });
  input.addEventListener('focus', () => {
    if (list.children.length > 0 || status.textContent) show(true);
  });
}
