import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';
import { imports, target } from '#test/support/importGraph';
import { filesUnder } from '#test/support/projectFiles';

/**
 * No module reaches itself through its imports, type imports included (as `npx madge --circular`
 * counts them): a cycle makes load order matter and ties the folders in it into one.
 */

const FOLDERS = ['shared', 'functions', 'infra', 'bin', 'console', 'test'];

/** Each file's imports of other project files (path -> paths). */
function importGraph(): Map<string, string[]> {
  const files = FOLDERS.flatMap((dir) => filesUnder(dir));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const source = readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
      const to = imports(source)
        .map(({ specifier }) => target(file, specifier))
        .filter((t): t is string => t !== undefined && known.has(t));
      return [file, [...new Set(to)]];
    }),
  );
}

/** The graph's strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  it('the finder finds a cycle and leaves a chain alone', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('no file sits in a cycle', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph).map((c) => c.join(' <-> '))).toEqual([]);
  });
});
