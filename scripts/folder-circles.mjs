// Reports import circles between the top-level folders of web/src: for each folder, which
// folders it imports (non-test sources, relative imports, `import type` included), then
// every strongly connected group of more than one folder (a circle). Exit code 1 when there
// is a circle, so a check can run it. Usage: node scripts/folder-circles.mjs [--edges]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..', 'web', 'src');
const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.test\.(ts|tsx)$/;
const IMPORT = /(?:import|export)\s[^'"`;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (name === 'pkg' || name === 'node_modules') continue;
    if (statSync(p).isDirectory()) yield* files(p);
    else if (SOURCE.test(name) && !TEST.test(name)) yield p;
  }
}

/** Top-level folder of a path under web/src ('' for files at its root). */
const folderOf = (p) => {
  const parts = relative(ROOT, p).split(sep);
  return parts.length > 1 ? parts[0] : '';
};

const edges = new Map();
for (const f of files(ROOT)) {
  const from = folderOf(f);
  if (!from) continue;
  for (const m of readFileSync(f, 'utf8').matchAll(IMPORT)) {
    const to = folderOf(resolve(dirname(f), m[1] ?? m[2]));
    if (!to || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    const out = edges.get(from);
    out.set(to, (out.get(to) ?? 0) + 1);
  }
}

// Tarjan's strongly connected components over the folder graph.
const nodes = [...new Set([...edges.keys(), ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
let index = 0;
const idx = new Map(),
  low = new Map(),
  stack = [],
  on = new Set(),
  groups = [];
function visit(v) {
  (idx.set(v, index), low.set(v, index++), stack.push(v), on.add(v));
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!idx.has(w)) (visit(w), low.set(v, Math.min(low.get(v), low.get(w))));
    else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const g = [];
    let w;
    do ((w = stack.pop()), on.delete(w), g.push(w));
    while (w !== v);
    if (g.length > 1) groups.push(g.sort());
  }
}
for (const v of nodes) if (!idx.has(v)) visit(v);

if (process.argv.includes('--edges')) {
  for (const v of nodes) {
    const out = [...(edges.get(v) ?? new Map())].sort((a, b) => b[1] - a[1]).map(([w, n]) => `${w}(${n})`);
    console.log(`${v.padEnd(10)} → ${out.join(' ') || '(nothing)'}`);
  }
}
if (!groups.length) console.log('No circles between the folders of web/src.');
for (const g of groups) {
  // Name the imports inside the circle, so the reader sees which edges close it.
  const inside = g.flatMap((v) =>
    [...(edges.get(v) ?? new Map())].filter(([w]) => g.includes(w)).map(([w, n]) => `${v}→${w}(${n})`),
  );
  console.log(`Circle: ${g.join(' ↔ ')}\n  ${inside.join(', ')}`);
}
process.exitCode = groups.length ? 1 : 0;
