import * as fs from 'fs';
import * as path from 'path';

/**
 * Where `synth -o DIR` writes an object set: `DIR/<namespace>/<name>.k8s.yaml` (no namespace:
 * `DIR/<name>.k8s.yaml`); Gateways get `.gateway.k8s.yaml`, which no deployment name (no dots) can
 * produce. A directory per namespace keeps `a-b/c` and `a/b-c` apart, and the final check keeps
 * every file inside DIR whatever the names contain.
 */
export function outputFile(outdir: string, namespace: string | undefined, name: string, suffix: '.k8s.yaml' | '.gateway.k8s.yaml'): string {
  const root = path.resolve(outdir);
  const file = path.resolve(root, ...(namespace ? [namespace] : []), `${name}${suffix}`);
  if (!file.startsWith(root + path.sep) || /[/\\]/.test(name) || (namespace !== undefined && /[/\\]|^\.\.?$/.test(namespace))) {
    throw new Error(`refusing to write ${JSON.stringify(`${namespace ?? ''}/${name}`)} outside ${root}`);
  }
  return file;
}

/** The list, in the output directory, of the files `synth -o` wrote there (paths relative to it, `/`-separated). */
export const WRITTEN_FILES_LIST = '.cdk8s-inference-files';

const LIST_HEADER = '# Files written here by cdk8s-inference synth -o; those no longer produced are removed on the next run.\n';

/** What writing an output directory did, as absolute paths. */
export interface OutputDirectoryChanges {
  readonly written: string[];
  readonly removed: string[];
}

/**
 * Writes `outputs` (absolute paths inside `outdir`, from {@link outputFile}) so that no reader
 * ever sees a half-written manifest: every file is written first into a staging directory beside
 * `outdir` (same file system), then renamed into place. Files an earlier run wrote (listed in
 * {@link WRITTEN_FILES_LIST}) that are no longer produced are removed, so GitOps does not keep
 * applying a deleted deployment; files it did not write are never touched. The list is the union
 * of old and new while files move, so an interrupted run leaves nothing it wrote unlisted.
 */
export function writeOutputDirectory(outdir: string, outputs: ReadonlyMap<string, string>): OutputDirectoryChanges {
  const root = path.resolve(outdir);
  if (fs.existsSync(root) && !fs.statSync(root).isDirectory()) throw new OutputDirectoryError(`${root} exists and is not a directory`);
  fs.mkdirSync(path.dirname(root), { recursive: true });
  const previous = readWrittenFiles(root);
  const relatives = [...outputs.keys()].map((file) => toListPath(path.relative(root, file))).sort();
  const staging = fs.mkdtempSync(path.join(path.dirname(root), `.${path.basename(root)}.tmp-`));
  const written: string[] = [];
  const removed: string[] = [];
  try {
    for (const [file, text] of outputs) {
      const staged = path.join(staging, path.relative(root, file));
      fs.mkdirSync(path.dirname(staged), { recursive: true });
      fs.writeFileSync(staged, text);
    }
    fs.mkdirSync(root, { recursive: true });
    writeList(root, staging, [...new Set([...previous, ...relatives])].sort());
    for (const file of outputs.keys()) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.renameSync(path.join(staging, path.relative(root, file)), file);
      written.push(file);
    }
    const current = new Set(relatives);
    for (const stale of previous.filter((rel) => !current.has(rel))) {
      const file = listedFile(root, stale);
      if (file === undefined || !isRegularFile(file)) continue;
      fs.unlinkSync(file);
      removed.push(file);
      removeEmptyDirectories(path.dirname(file), root);
    }
    writeList(root, staging, relatives);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return { written, removed };
}

/** The output directory cannot be written (exit code 1, no stack trace). */
export class OutputDirectoryError extends Error {}

function writeList(root: string, staging: string, relatives: readonly string[]): void {
  const staged = path.join(staging, WRITTEN_FILES_LIST);
  fs.writeFileSync(staged, LIST_HEADER + relatives.map((r) => `${r}\n`).join(''));
  fs.renameSync(staged, path.join(root, WRITTEN_FILES_LIST));
}

function readWrittenFiles(root: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, WRITTEN_FILES_LIST), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

function toListPath(relative: string): string {
  return relative.split(path.sep).join('/');
}

/** The file a list entry names, only when it is one `synth -o` could have written inside `root`. */
function listedFile(root: string, entry: string): string | undefined {
  const segments = entry.split('/');
  if (!entry.endsWith('.k8s.yaml') || segments.length > 2 || segments.some((s) => s === '' || s === '.' || s === '..' || /[\\:]/.test(s))) return undefined;
  const file = path.resolve(root, ...segments);
  return file.startsWith(root + path.sep) ? file : undefined;
}

function isRegularFile(file: string): boolean {
  try {
    return fs.lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function removeEmptyDirectories(dir: string, root: string): void {
  for (let d = dir; d !== root && d.startsWith(root + path.sep); d = path.dirname(d)) {
    if (fs.readdirSync(d).length > 0) return;
    fs.rmdirSync(d);
  }
}
