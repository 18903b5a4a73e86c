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
    const graph = importGraph(files);
    // The scan must see the imports, or "no cycles" says nothing: most modules import another, and it finds a plain
    // import, a type-only one, a re-export and an import spread over several lines.
    const edges = [...graph.values()].reduce((n, deps) => n + deps.length, 0);
    expect(edges).toBeGreaterThan(files.length);
    expect([...graph.values()].filter((deps) => deps.length > 0).length).toBeGreaterThan(files.length / 2);
    const edge = (from: string, to: string) => graph.get(join(PACKAGE_ROOT, from))?.includes(join(PACKAGE_ROOT, to));
    expect(edge('harness/checks/target.ts', 'harness/checks/budget.ts'), 'import').toBe(true);
    expect(edge('harness/checks/errors.ts', 'harness/catalog/index.ts'), 'import type').toBe(true);
    expect(edge('harness/runner.ts', 'harness/run/session.ts'), 'export … from').toBe(true);
    expect(edge('suites/service/support/sessions.ts', 'harness/checks/index.ts'), 'an import over several lines').toBe(true);
    expect(cycles(graph)).toEqual([]);
  });
});
