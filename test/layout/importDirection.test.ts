import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '#infra/projectRoot';

/**
 * Imports run one way: shared/schemas (the HTTP contract's shapes) builds on shared/domain (the
 * rules, their limits and the shapes they validate), never the reverse, and domain code knows
 * nothing of HTTP. The one module of shared/schemas the domain may use is the zod set-up
 * (shared/schemas/zod.ts), which imports nothing of ours.
 */
const ZOD_SETUP = 'shared/schemas/zod.ts';
const FORBIDDEN_FROM_DOMAIN = ['shared/schemas/', 'shared/http/'];

const filesUnder = (dir: string): string[] =>
  readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(rel);
    return entry.name.endsWith('.ts') ? [rel] : [];
  });

/** Every module specifier a source names: static imports and re-exports, and dynamic import(). */
function specifiers(source: string): string[] {
  const found = [
    ...source.matchAll(/\bfrom\s*['"]([^'"]+)['"]/g),
    ...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ];
  return found.map((m) => m[1]);
}

/** The project path a specifier names (`#shared/x` or relative), or undefined for a package. */
function target(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#')) return `${specifier.slice(1)}.ts`;
  if (specifier.startsWith('.')) return `${path.posix.join(path.posix.dirname(file), specifier)}.ts`;
  return undefined;
}

/** The imports of `files` (path -> source) that go the wrong way, as `file -> target`. */
function wrongWayImports(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, source]) =>
    specifiers(source)
      .map((s) => target(file, s))
      .filter(
        (t): t is string =>
          t !== undefined && t !== ZOD_SETUP && FORBIDDEN_FROM_DOMAIN.some((prefix) => t.startsWith(prefix)),
      )
      .map((t) => `${file} -> ${t}`),
  );
}

const read = (files: string[]) =>
  Object.fromEntries(files.map((f) => [f, readFileSync(path.join(PROJECT_ROOT, f), 'utf8')]));

describe('import direction between shared/schemas and shared/domain', () => {
  it('no domain module imports a schema module (other than the zod set-up) or the HTTP layer', () => {
    const domain = filesUnder('shared/domain');
    expect(domain.length).toBeGreaterThan(50);
    expect(wrongWayImports(read(domain))).toEqual([]);
  });

  it('the schemas do build on the domain (the direction is not just empty)', () => {
    const schemas = read(filesUnder('shared/schemas'));
    expect(
      Object.values(schemas).some((source) => specifiers(source).some((s) => s.startsWith('#shared/domain/'))),
    ).toBe(true);
  });

  it('the zod set-up imports nothing of ours, so allowing it lets nothing else in', () => {
    expect(
      specifiers(readFileSync(path.join(PROJECT_ROOT, ZOD_SETUP), 'utf8')).filter(
        (s) => s.startsWith('#') || s.startsWith('.'),
      ),
    ).toEqual([]);
  });

  it('catches each way of importing the wrong way', () => {
    expect(
      wrongWayImports({
        'shared/domain/jobs/a.ts':
          "import { x } from '#shared/schemas/jobs';\nimport * as z from '#shared/schemas/zod';",
        'shared/domain/jobs/b.ts': "export { y } from '../../schemas/growth';",
        'shared/domain/growth/c.ts': "const m = await import('#shared/http/errors');",
        'shared/domain/growth/d.ts': "import type { T } from './plan';\nimport { z } from 'zod/mini';",
      }),
    ).toEqual([
      'shared/domain/jobs/a.ts -> shared/schemas/jobs.ts',
      'shared/domain/jobs/b.ts -> shared/schemas/growth.ts',
      'shared/domain/growth/c.ts -> shared/http/errors.ts',
    ]);
  });
});
