// The published pages' stylesheets take their radii, weights and the font sizes and times they
// share from the design tokens (000 §9, 001 §9), which every page and the dashboard inline from
// `server/src/render/style.rs` (`TOKENS`; its own test pins their values to the spec's).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { constant, num } from './fixtures';

const src = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Every stylesheet of the visitor runtime (the dashboard's own is not a published page's). */
function visitorStylesheets(dir = src): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'dashboard' ? [] : visitorStylesheets(path);
    return name.endsWith('.css') ? [path] : [];
  });
}

/** The tokens as the server inlines them: name → value. */
function serverTokens(): Map<string, string> {
  const rust = readFileSync(join(src, '../../server/src/render/style.rs'), 'utf8');
  const match = /pub const TOKENS: &str = "(:root\{[^"]*\})";/.exec(rust);
  if (!match) throw new Error('server/src/render/style.rs has no TOKENS');
  const body = (match[1] ?? '').slice(':root{'.length, -1);
  return new Map(body.split(';').map((decl) => decl.split(':') as [string, string]));
}

/** `property: value` declarations of one stylesheet. */
function declarations(css: string, property: string): string[] {
  return [...css.matchAll(new RegExp(`(?<![-\\w])${property}\\s*:\\s*([^;}]+)`, 'g'))].map((m) => (m[1] ?? '').trim());
}

/** A token's value in CSS pixels or milliseconds (a rem is 16 px by default). */
function measure(value: string): number {
  const n = Number.parseFloat(value);
  return value.endsWith('rem') ? n * 16 : n;
}

describe('design tokens', () => {
  const tokens = serverTokens();
  const family = (name: string) => [...tokens].filter(([k]) => k.startsWith(`--${name}-`)).map(([, v]) => measure(v));

  it('are the spec radii, weights, font-size range and time steps', () => {
    expect(family('radius')).toEqual(constant('tokens.radii'));
    expect(family('font-weight')).toEqual(constant('tokens.weights'));
    const sizes = family('font-size');
    expect([sizes[0], sizes.at(-1)]).toEqual([num('tokens.fontSizeMin'), num('tokens.fontSizeMax')]);
    const times = family('time');
    expect([times[0], times.at(-1)]).toEqual([0, num('tokens.timeStepMaxMs')]);
  });

  const sheets = visitorStylesheets();

  it('are what every font weight of the visitor stylesheets names', () => {
    expect(sheets.length).toBeGreaterThan(10);
    for (const sheet of sheets) {
      for (const value of declarations(readFileSync(sheet, 'utf8'), 'font-weight')) {
        expect(value, relative(src, sheet)).toMatch(/^var\(--font-weight-\d\)$/);
      }
    }
  });

  it('are every corner radius of the visitor stylesheets, circles and pills aside', () => {
    for (const sheet of sheets) {
      for (const value of declarations(readFileSync(sheet, 'utf8'), 'border-radius')) {
        if (value.includes('%') || value === '999px' || value === '0') continue;
        expect(value, relative(src, sheet)).toMatch(/^var\(--radius-\d\)$/);
      }
    }
  });

  it('are all defined, wherever the visitor stylesheets use one', () => {
    for (const sheet of sheets) {
      const css = readFileSync(sheet, 'utf8');
      for (const [, name] of css.matchAll(/var\((--(?:radius|font-size|font-weight|time)-\d)\)/g)) {
        expect(tokens.has(name ?? ''), `${relative(src, sheet)}: ${name}`).toBe(true);
      }
    }
  });
});
