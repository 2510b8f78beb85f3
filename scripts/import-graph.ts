/**
 * Prints how the folders of `src/` depend on each other (issue 27's before/after figures): the
 * folders tied into one import knot (the largest strongly connected set of the folder graph: from
 * any of them every other is reachable), the files on an import cycle (type-only imports count:
 * they still tie the files' meaning together), and the hand-written lines per folder.
 *
 *   npx ts-node --project scripts/tsconfig.json scripts/import-graph.ts [--json]
 *
 * A folder is the first path segment under `src/` (`providers`, `core`, ...); `src/imports` (the
 * generated L1 bindings) and every `generated/` folder count as generated, not hand-written, but
 * their imports are edges like any other.
 *
 * Imports running back up are those from a folder to one on its own floor or above in the floor
 * map of projenrc/layers.ts (the same map the eslint rule import/no-restricted-paths enforces).
 */
import * as fs from 'fs';
import * as path from 'path';
import { floorOf } from '../projenrc/layers';

const SRC = path.resolve(__dirname, '..', 'src');

/** Every `.ts` file under `dir`, relative to SRC. */
function sourceFiles(dir: string = SRC): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path.relative(SRC, full));
  }
  return out.sort();
}

/** Module specifiers a file imports or re-exports (static, `require`, and `import()` types). */
const SPECIFIER = /(?:\bfrom\s+|\bimport\s+|\brequire\(\s*|\bimport\(\s*)'([^']+)'/g;

/** The file a relative specifier of `from` names, or undefined for a package or an unresolvable path. */
function resolve(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.normalize(path.join(path.dirname(from), specifier));
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (files.has(candidate)) return candidate;
  return undefined;
}

function folderOf(file: string): string {
  return file.includes(path.sep) ? file.split(path.sep)[0] : '(root)';
}

function isGenerated(file: string): boolean {
  return folderOf(file) === 'imports' || file.split(path.sep).includes('generated');
}

/** Tarjan's strongly connected components of a graph given as adjacency sets. */
function components(nodes: readonly string[], edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
      }
    }
    if (low.get(v) === indexOf.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      out.push(scc.sort());
    }
  };
  for (const v of nodes) if (!indexOf.has(v)) visit(v);
  return out;
}

export interface ImportGraphFigures {
  readonly folders: string[];
  readonly knot: string[];
  readonly filesOnCycles: string[];
  readonly fileCycles: string[][];
  readonly handWrittenLines: Record<string, number>;
  readonly folderEdges: Record<string, string[]>;
  /** Imports from a folder to one on its own floor or above (projenrc/layers.ts), as `from -> to`. */
  readonly importsBackUp: string[];
  /** Folders the floor map does not name. */
  readonly foldersWithoutFloor: string[];
}

export function importGraphFigures(): ImportGraphFigures {
  const files = sourceFiles();
  const fileSet = new Set(files);
  const fileEdges = new Map<string, Set<string>>();
  const folderEdges = new Map<string, Set<string>>();
  const lines: Record<string, number> = {};
  const importsBackUp: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(SRC, file), 'utf8');
    if (!isGenerated(file)) lines[folderOf(file)] = (lines[folderOf(file)] ?? 0) + text.split('\n').length;
    const targets = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const target = resolve(file, m[1], fileSet);
      if (target && target !== file) targets.add(target);
    }
    fileEdges.set(file, targets);
    const from = folderOf(file);
    for (const t of targets) {
      const to = folderOf(t);
      if (to === from) continue;
      folderEdges.set(from, (folderEdges.get(from) ?? new Set()).add(to));
      const [fromFloor, toFloor] = [floorOf(from), floorOf(to)];
      if (fromFloor !== undefined && toFloor !== undefined && toFloor >= fromFloor) importsBackUp.push(`${file} -> ${t}`);
    }
  }
  const folders = [...new Set(files.map(folderOf))].sort();
  const knot = components(folders, folderEdges).sort((a, b) => b.length - a.length)[0] ?? [];
  const fileCycles = components(files, fileEdges).filter((c) => c.length > 1);
  return {
    folders,
    knot: knot.length > 1 ? knot : [],
    filesOnCycles: fileCycles.flat().sort(),
    fileCycles,
    handWrittenLines: lines,
    importsBackUp,
    foldersWithoutFloor: folders.filter((f) => floorOf(f) === undefined),
    folderEdges: Object.fromEntries([...folderEdges].map(([k, v]) => [k, [...v].sort()]).sort()),
  };
}

if (require.main === module) {
  const f = importGraphFigures();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(f, null, 2));
  } else {
    console.log(`folders under src/: ${f.folders.length}`);
    console.log(`folders in the largest import knot: ${f.knot.length} (${f.knot.join(', ')})`);
    console.log(`import cycles between files: ${f.fileCycles.length}, ${f.filesOnCycles.length} files on them`);
    for (const c of f.fileCycles) console.log(`  tied into one cycle: ${c.join(', ')}`);
    console.log(`imports running back up (to a folder on the same floor or above, projenrc/layers.ts): ${f.importsBackUp.length}`);
    for (const i of f.importsBackUp) console.log(`  ${i}`);
    if (f.foldersWithoutFloor.length) console.log(`folders the floor map does not name: ${f.foldersWithoutFloor.join(', ')}`);
    const total = Object.values(f.handWrittenLines).reduce((a, b) => a + b, 0);
    console.log(`hand-written lines: ${total}`);
    for (const [folder, n] of Object.entries(f.handWrittenLines).sort((a, b) => b[1] - a[1])) console.log(`  ${folder}: ${n}`);
  }
}
