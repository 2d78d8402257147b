import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from './app';
import { readConfig } from './config';

afterEach(() => {
  document.body.innerHTML = '';
});

function shell(frameUrl: string): HTMLElement {
  document.body.innerHTML = `<main id="dashboard-root" data-frame-url="${frameUrl}"><h1>Configuration · Demo</h1></main>`;
  return document.getElementById('dashboard-root')!;
}

describe('the dashboard', () => {
  it('shows the heading, the preview of data-frame-url and the streams placeholder', () => {
    const root = shell('/menu?x=1');
    act(() => createRoot(root).render(<App config={readConfig(root)} />));
    expect(root.querySelector('h1')?.textContent).toBe('Configuration');
    expect(root.querySelector('iframe')?.getAttribute('src')).toBe('/menu?x=1');
    expect(root.querySelector('iframe')?.title).toBe('Site preview');
    expect(root.textContent).toContain('Live streams arrive here');
  });

  it('previews / when the frame URL is not a same-site path', () => {
    for (const bad of ['https://evil.example/', '//evil.example', '/\\evil', '', 'javascript:alert(1)']) {
      expect(readConfig(shell(bad)).frameUrl).toBe('/');
    }
    expect(readConfig(shell('/about')).frameUrl).toBe('/about');
  });
});
