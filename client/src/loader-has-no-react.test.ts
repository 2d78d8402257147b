// The loader runs on every page and must never bring React along: this scans every
// source file under src/loader, follows its static imports, and fails on any React import.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const LOADER = join(SRC, 'loader');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Specifiers of the imports that end up in the loader bundle (not `import type`, not `import()`). */
function staticImports(source: string): string[] {
  const found: string[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) {
    if (!match[2]) found.push(match[3]!);
  }
  return found;
}

/** Every specifier, static or dynamic, naming React. */
function reactImports(source: string): string[] {
  const specifiers = [...source.matchAll(/(?:from\s*|import\s*\(?\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.filter((s) => /^(react|react-dom|scheduler)(\/|$)/.test(s));
}

function resolveRelative(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

describe('the loader', () => {
  it('has sources to scan', () => {
    expect(sourceFiles(LOADER).map((f) => relative(SRC, f))).toContain(join('loader', 'index.ts'));
  });

  it('never imports React, directly or through its static imports', () => {
    const offenders: string[] = [];
    const seen = new Set<string>();
    const queue = sourceFiles(LOADER);
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      reactImports(source).forEach((s) => offenders.push(`${relative(SRC, file)} imports ${s}`));
      for (const specifier of staticImports(source)) {
        // Packages are checked by name above (React's own); other packages carry no React.
        if (!specifier.startsWith('.')) continue;
        const target = resolveRelative(file, specifier);
        if (target) queue.push(target);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('scan catches a React import', () => {
    expect(reactImports(`import { useState } from 'react';`)).toEqual(['react']);
    expect(reactImports(`const m = import("react-dom/client");`)).toEqual(['react-dom/client']);
    expect(staticImports(`import type { X } from './x';\nimport { y } from './y';\nexport { z } from "./z";`)).toEqual(['./y', './z']);
  });
});
