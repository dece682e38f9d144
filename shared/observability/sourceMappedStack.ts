/**
 * Stack traces in source terms, paid for only when one is logged. A bundle ships its source map
 * beside it (index.js.map), but the functions run without --enable-source-maps: Node would read and
 * decode that map at every cold start (tens of milliseconds, growing with the bundle) to serve the
 * few stacks an error line carries. Here the map of a frame's file is read on the first stack that
 * names it, and each frame of the bundle is rewritten to the source file, line and column.
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

/** The map of each file met in a stack, or null when it has none (also remembered). */
const maps = new Map<string, SourceMap | null>();

function mapOf(file: string): SourceMap | null {
  const known = maps.get(file);
  if (known !== undefined) return known;
  let map: SourceMap | null = null;
  // Only bundles the build wrote: a JavaScript file at an absolute path with a .map beside it.
  if (file.startsWith('/') && /\.[cm]?js$/.test(file)) {
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      // No map beside it, or not one Node can read: the frame stays as V8 wrote it.
    }
  }
  maps.set(file, map);
  return map;
}

const FRAME_START = '    at ';

/**
 * One frame line (`    at name (file:line:column)` or `    at file:line:column`) with its location
 * in source terms, or the line unchanged. Parsed with index searches, not a regular expression: a
 * stack's lines can carry text from a request (the error message), and these run in linear time.
 */
function mapFrame(line: string): string {
  if (!line.startsWith(FRAME_START)) return line;
  const inParens = line.endsWith(')');
  const start = inParens ? line.lastIndexOf('(') + 1 : FRAME_START.length;
  const location = line.slice(start, inParens ? -1 : undefined);
  const columnAt = location.lastIndexOf(':');
  const lineAt = location.lastIndexOf(':', columnAt - 1);
  if (start === 0 || lineAt <= 0) return line;
  const file = location.slice(0, lineAt);
  const row = Number(location.slice(lineAt + 1, columnAt));
  const column = Number(location.slice(columnAt + 1));
  if (!Number.isInteger(row) || !Number.isInteger(column) || row < 1 || column < 1) return line;
  const map = mapOf(file);
  if (!map) return line;
  // SourceMap positions are zero-based; a stack's are one-based.
  const entry = map.findEntry(row - 1, column - 1) as Partial<{
    originalSource: string;
    originalLine: number;
    originalColumn: number;
  }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined)
    return line;
  // esbuild names sources relative to the bundle's folder (../../shared/...): the project path reads better.
  const source = entry.originalSource.replace(/^(?:\.\.\/)+/, '');
  const mapped = `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  return `${line.slice(0, start)}${mapped}${inParens ? ')' : ''}`;
}

/** `stack` with every frame of a mapped bundle in source terms; other lines as they are. */
export function sourceMappedStack(stack: string): string {
  // Under --enable-source-maps (or tsx, vitest) V8's stacks are in source terms already.
  if (process.sourceMapsEnabled) return stack;
  return stack.split('\n').map(mapFrame).join('\n');
}

/**
 * The log's JSON replacer: an error about to be written (and each error it was caused by) gets its
 * stack in source terms first, so the line's `stack` and `location` name the source.
 */
export function mapErrorStacks(_key: string, value: unknown): unknown {
  // Called for every key of every line written: nothing is set up unless the value is an error.
  if (!(value instanceof Error)) return value;
  const seen = new Set<unknown>();
  for (let err: unknown = value; err instanceof Error && !seen.has(err); err = err.cause) {
    seen.add(err);
    if (typeof err.stack === 'string') err.stack = sourceMappedStack(err.stack);
  }
  return value;
}
