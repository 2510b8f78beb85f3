/**
 * Moves TypeScript files and rewrites every relative import of them (issue 27's folder moves):
 *
 *   npx ts-node --project scripts/tsconfig.json scripts/refactor-proof/move-files.ts MOVES
 *
 * MOVES has one `old new` pair of repository-relative paths per line (`#` starts a comment). The
 * files move with `git mv`; then every `.ts` file under src/, test/, scripts/, examples/ and
 * projenrc/ (and .projenrc.ts) gets each relative specifier (`from`, `import`, `require`,
 * `import()`, `jest.mock`, `jest.requireActual`) re-pointed at the target's new place, and a moved
 * file's own specifiers re-pointed from its new place. Specifiers of packages, and of files that
 * did not move relative to their importer, stay byte for byte.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const SCAN = ['src', 'test', 'scripts', 'examples', 'projenrc'];
const SPECIFIER = /(\bfrom\s+|\bimport\s+|\brequire\(\s*|\bimport\(\s*|\bjest\.mock\(\s*|\bjest\.requireActual\(\s*|\brequireActual<[^>]*>\(\s*)'(\.{1,2}\/[^']*)'/g;
const EXTENSIONS = ['.ts', '.tsx', '.js', '.json', '/index.ts'];

function tsFiles(dir: string): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  const out: string[] = [];
  for (const e of fs.readdirSync(full, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...tsFiles(rel));
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

function readMoves(file: string): Map<string, string> {
  const moves = new Map<string, string>();
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [from, to, extra] = line.split(/\s+/);
    if (!to || extra) throw new Error(`bad line: ${raw}`);
    if (!fs.existsSync(path.join(ROOT, from))) throw new Error(`no such file: ${from}`);
    if (moves.has(from)) throw new Error(`moved twice: ${from}`);
    moves.set(path.normalize(from), path.normalize(to));
  }
  const targets = new Set<string>();
  for (const to of moves.values()) {
    if (targets.has(to)) throw new Error(`two files move to ${to}`);
    if (fs.existsSync(path.join(ROOT, to)) && !moves.has(to)) throw new Error(`target exists: ${to}`);
    targets.add(to);
  }
  return moves;
}

/** The repository-relative file a specifier names (with the suffix that was left off), before the moves. */
function resolveOld(fromFileOld: string, spec: string): { file: string; suffix: string } | undefined {
  const base = path.normalize(path.join(path.dirname(fromFileOld), spec));
  if (fs.existsSync(path.join(ROOT, base)) && fs.statSync(path.join(ROOT, base)).isFile()) return { file: base, suffix: '' };
  for (const ext of EXTENSIONS) {
    if (fs.existsSync(path.join(ROOT, base + ext))) return { file: base + ext, suffix: ext };
  }
  return undefined;
}

function specifierFor(fromFileNew: string, targetNew: string, suffix: string): string {
  let target = targetNew;
  if (suffix && target.endsWith(suffix)) target = target.slice(0, -suffix.length);
  let rel = path.relative(path.dirname(fromFileNew), target).split(path.sep).join('/');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel;
}

function main(): void {
  const movesFile = process.argv[2];
  if (!movesFile) throw new Error('usage: move-files.ts MOVES');
  const moves = readMoves(movesFile);
  const files = [...SCAN.flatMap(tsFiles), '.projenrc.ts'];
  // Compute every file's new text before touching the tree (resolution looks at the old layout).
  const rewritten = new Map<string, string>();
  for (const oldFile of files) {
    const newFile = moves.get(oldFile) ?? oldFile;
    const text = fs.readFileSync(path.join(ROOT, oldFile), 'utf8');
    const next = text.replace(SPECIFIER, (whole, lead: string, spec: string) => {
      const target = resolveOld(oldFile, spec);
      if (!target) return whole;
      const targetNew = moves.get(target.file) ?? target.file;
      if (targetNew === target.file && newFile === oldFile) return whole;
      const respec = specifierFor(newFile, targetNew, target.suffix);
      return `${lead}'${respec}'`;
    });
    if (next !== text) rewritten.set(oldFile, next);
  }
  for (const [from, to] of moves) {
    fs.mkdirSync(path.dirname(path.join(ROOT, to)), { recursive: true });
    execFileSync('git', ['mv', from, to], { cwd: ROOT });
  }
  for (const [oldFile, text] of rewritten) fs.writeFileSync(path.join(ROOT, moves.get(oldFile) ?? oldFile), text);
  console.log(`moved ${moves.size} files, rewrote imports in ${rewritten.size}`);
}

main();
