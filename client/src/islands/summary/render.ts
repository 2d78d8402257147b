// Widget rendering in the browser (000 §7 `POST /api/widget/GetWidgetRendering`).
//
// Summary blocks are rendered by the server into the page, so a published page needs no
// call. The browser asks for a rendering only when the block's content must change after
// the page was built:
// - the block's data changed in the page (a `veranda:block-data` event whose detail is the
//   block's new JSON, as the editor's live changes send it); or
// - the server marked the block `data-render="client"` (its content is left for the
//   browser to fill).
// The request is form-encoded `widgetJSON` (`type`, `id` without the `block-` prefix,
// `value` = the block's JSON) and, for event summaries (a `collectionId` in the block's
// data or a `data-collection-id` on its element), `collectionId`. The answer's `html` is the
// server's rendering of the site's own, already sanitised content; it is still parsed
// inertly and stripped of scripts, frames, handlers and `javascript:` links before it
// replaces the block's content. An undecodable answer or a refusal logs the warning and
// aborts, leaving the block's content as it was (000 §8); the warning is traced too.
import { runtimeLog } from '../../loader/telemetry/runtime-log';

/** The route. */
export const WIDGET_RENDERING_PATH = '/api/widget/GetWidgetRendering';
/** The warning of an answer that cannot be used (000 §8: logs a warning and aborts). */
export const UNDECODABLE_WARNING = 'Widget JSON could not be decoded; the block is left as it is.';

/** The form fields of a rendering request for block element `el` with data `value`. */
export function widgetForm(el: HTMLElement, type: string, value: unknown): URLSearchParams | null {
  const id = el.id.replace(/^block-/, '');
  if (!id || value === null || typeof value !== 'object') return null;
  const { collectionId, ...rest } = value as Record<string, unknown>;
  const form = new URLSearchParams();
  form.set('widgetJSON', JSON.stringify({ type, id, value: rest }));
  const collection = typeof collectionId === 'string' && collectionId ? collectionId : el.dataset.collectionId;
  if (collection) form.set('collectionId', collection);
  return form;
}

/** `html` parsed inertly, with anything that could run code removed. */
export function cleanFragment(doc: Document, html: string): DocumentFragment {
  const template = doc.createElement('template');
  template.innerHTML = html;
  const content = template.content;
  content.querySelectorAll('script, iframe, object, embed, style, link, meta, base, form').forEach((n) => n.remove());
  for (const node of Array.from(content.querySelectorAll('*'))) {
    for (const attr of Array.from(node.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      if (name.startsWith('on') || ((name === 'href' || name === 'src' || name === 'action' || name === 'xlink:href') && /^(javascript|data|vbscript):/.test(value))) {
        node.removeAttribute(attr.name);
      }
    }
  }
  return content;
}

/**
 * Asks the server to render block `el` (of `type`, with data `value`) and puts the answer
 * into the block. Resolves true when the content was replaced; false (after the warning)
 * when the answer was refused or undecodable, the block left as it was.
 */
export async function renderWidget(
  el: HTMLElement,
  type: string,
  value: unknown,
  fetcher: typeof fetch = fetch,
): Promise<boolean> {
  const form = widgetForm(el, type, value);
  if (!form) {
    runtimeLog('warn', 'widget-undecodable', UNDECODABLE_WARNING);
    return false;
  }
  let html: unknown;
  try {
    const res = await fetcher(WIDGET_RENDERING_PATH, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const body = (await res.json()) as { html?: unknown; error?: unknown };
    if (!res.ok) {
      runtimeLog('warn', 'widget-undecodable', UNDECODABLE_WARNING, body?.error ?? res.status);
      return false;
    }
    html = body?.html;
  } catch (error) {
    runtimeLog('warn', 'widget-undecodable', UNDECODABLE_WARNING, error);
    return false;
  }
  if (typeof html !== 'string') {
    runtimeLog('warn', 'widget-undecodable', UNDECODABLE_WARNING);
    return false;
  }
  el.replaceChildren(cleanFragment(el.ownerDocument, html));
  return true;
}
