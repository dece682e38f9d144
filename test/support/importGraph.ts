import * as path from 'node:path';

export interface Import {
  specifier: string;
  /** `import type …`, `export type …`, or every name marked `type`: the compiler erases it. */
  typeOnly: boolean;
}

/** Every module a source names: static imports and re-exports, side-effect imports, and dynamic import(). */
export function imports(source: string): Import[] {
  const statements = [...source.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/gm)];
  return [
    ...statements.map((m) => {
      const names = /^\{([^}]*)\}$/
        .exec(m[2].trim())?.[1]
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      return {
        specifier: m[3],
        typeOnly:
          m[1] !== undefined || (names !== undefined && names.length > 0 && names.every((n) => n.startsWith('type '))),
      };
    }),
    ...[...source.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => ({
      specifier: m[1],
      typeOnly: false,
    })),
    ...[...source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)].map((m) => ({ specifier: m[1], typeOnly: false })),
  ];
}

/** The project path a specifier names (`#shared/x` or relative), or undefined for a package. */
export function target(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('#')) return `${specifier.slice(1)}.ts`;
  if (specifier.startsWith('.')) return `${path.posix.join(path.posix.dirname(file), specifier)}.ts`;
  return undefined;
}
