import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { PreviewFrame } from './preview-frame';

afterEach(() => {
  document.body.innerHTML = '';
});

function renderFrame(): HTMLIFrameElement {
  const container = document.createElement('div');
  document.body.append(container);
  act(() => createRoot(container).render(<PreviewFrame url="/gallery-designs" />));
  return container.querySelector('iframe')!;
}

function post(frame: HTMLIFrameElement, data: unknown, origin = window.location.origin, source: Window | null = frame.contentWindow) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

describe('the site preview', () => {
  it("follows a gallery slide's click-through within the site, posted by the framed page", () => {
    const frame = renderFrame();
    const here = window.location.origin;
    post(frame, { type: 'veranda:gallery-click-through', url: 'https://elsewhere.example/menu' });
    post(frame, { type: 'veranda:gallery-click-through', url: `${here}/menu` }, 'https://elsewhere.example');
    post(frame, { type: 'veranda:gallery-click-through', url: `${here}/menu` }, here, window);
    post(frame, { type: 'other', url: `${here}/menu` });
    expect(frame.getAttribute('src')).toBe('/gallery-designs');
    post(frame, { type: 'veranda:gallery-click-through', url: `${here}/menu?x=1` });
    expect(frame.getAttribute('src')).toBe('/menu?x=1');
  });
});
