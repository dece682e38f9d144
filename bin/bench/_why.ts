import * as esbuild from 'esbuild';
import { stackEsbuildOptions } from '#infra/bundling';
const [fn, target] = process.argv.slice(2);
const r = await esbuild.build({ ...stackEsbuildOptions(`functions/${fn}/handler.ts`, `/tmp/why/${fn}/index.js`), metafile: true, write: false, logLevel: 'error' });
const importers = new Map<string, string[]>();
for (const [file, input] of Object.entries(r.metafile.inputs)) for (const imp of input.imports) { const l = importers.get(imp.path) ?? []; l.push(file); importers.set(imp.path, l); }
// BFS from target up to entry
const entry = `functions/${fn}/handler.ts`;
const prev = new Map<string, string>(); const q = [target]; const seen = new Set([target]);
while (q.length) { const f = q.shift()!; if (f === entry) break; for (const i of importers.get(f) ?? []) if (!seen.has(i)) { seen.add(i); prev.set(i, f); q.push(i); } }
let f: string | undefined = entry; const chain = [];
while (f) { chain.push(f); f = prev.get(f); }
console.log(chain.join('\n  -> '));
