import { afterEach, describe, expect, it, vi } from 'vitest';
import { boot } from './boot';
import { readPageContext } from './context';

function page(contextJson: string | null): void {
  document.body.innerHTML =
    contextJson === null ? '<main></main>' : `<script id="page-context" type="application/json">${contextJson}</script><main></main>`;
}

afterEach(() => {
  document.body.innerHTML = '';
  delete window.Veranda;
});

describe('page context', () => {
  it('is parsed from the page-context script', () => {
    page('{"pageType": 2, "website": {"id": "w1"}, "collectionId": null}');
    const context = readPageContext(document);
    expect(context?.pageType).toBe(2);
    expect(context?.website).toEqual({ id: 'w1' });
    expect(context?.collectionId).toBeNull();
  });

  it('is null without a page-context script, and nothing is logged', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    page(null);
    expect(readPageContext(document)).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  it('is null with a warning when the JSON is broken', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    page('{"pageType": 2,');
    expect(readPageContext(document)).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
  });

  it('is null with a warning when the JSON is not an object', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    page('[1, 2]');
    expect(readPageContext(document)).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
  });

  it('is exposed on window.Veranda.context by boot', () => {
    page('{"pageType": 100}');
    boot(window);
    expect(window.Veranda?.context?.pageType).toBe(100);
  });
});
