/**
 * No import cycles among the project's modules (type-only imports included): each module's imports, followed
 * depth-first, never come back to it. A cycle names the modules on it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-info.ts';

function sources(dir: string, into: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist') sources(path, into);
    } else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) into.push(resolve(path));
  }
  return into;
}

/** The relative imports (and re-exports) of each module. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const deps = [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms)].map((m) => resolve(dirname(file), m[1]!));
    return [file, deps.filter((d) => known.has(d))];
  }));
}

function cycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (state.get(dep) === 'open') found.add(stack.slice(stack.indexOf(dep)).map((f) => relative(PACKAGE_ROOT, f)).join(' → '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return [...found];
}

describe('import graph', () => {
  it('finds a cycle when there is one', () => {
    expect(cycles(new Map([['/p/a.ts', ['/p/b.ts']], ['/p/b.ts', ['/p/a.ts']], ['/p/c.ts', ['/p/a.ts']]]))).toHaveLength(1);
  });

  it('has no import cycles in harness/, suites/, fixtures/ and examples/', () => {
    const files = ['harness', 'suites', 'fixtures', 'examples'].flatMap((d) => sources(join(PACKAGE_ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    expect(cycles(importGraph(files))).toEqual([]);
  });
});
