import * as fs from 'fs';
import * as path from 'path';
import { formatProblem, InputDocument, InputProblem, readInputDocuments, STDIN_NAME, StdinReader } from './input-documents';
import type { CliIo } from './io';
import { validateObject } from '../schema-validation/object-validation';

/**
 * Limits on one input file (or stdin), checked before the YAML parser sees it, so that no input
 * can make `validate` hang: the parser's time grows with the square of the keys of one mapping
 * (it checks each key against the ones before) and of the documents of one stream (measured with
 * yaml 2.9: 40,000 keys took over 30 s, 10,000 documents 7 s). Real manifests are far below:
 * the API server takes at most 3 MiB in one request, so no object is larger.
 */
export const MAX_VALIDATE_INPUT_BYTES = 4 * 1024 * 1024;
/** Most keys in one mapping of an input (see MAX_VALIDATE_INPUT_BYTES). */
export const MAX_VALIDATE_MAPPING_KEYS = 5000;
/** Most documents in one input (see MAX_VALIDATE_INPUT_BYTES). */
export const MAX_VALIDATE_DOCUMENTS = 2000;

/** How `--skip-unknown-kinds` is named in messages. */
const SKIP_FLAG = '--skip-unknown-kinds';

/** Options of `cdk8s-inference validate`. */
export interface ValidateOptions {
  /** `--skip-unknown-kinds`: objects of kinds without an upstream schema are skipped, not errors. */
  readonly skipUnknownKinds?: boolean;
}

/**
 * `validate`: every object of every input against its upstream schema and CEL rules (the
 * validator the tests use, src/schema-validation), unknown fields as errors. Exit 0 when every
 * object is valid, 1 when any is not (each problem on stderr as `FILE[doc N]:LINE:COL:
 * Kind/name: field.path: message`).
 */
export function runValidate(files: readonly string[], options: ValidateOptions, io: CliIo): number {
  const { documents, problems } = readInputs(files, io);
  let checked = 0;
  let invalid = 0;
  const skipped: string[] = [];
  for (const doc of documents) {
    const verdict = validateObject(doc.content, { skipUnknownKinds: options.skipUnknownKinds, skipUnknownKindsHint: SKIP_FLAG });
    const subject = `${verdict.kind || '<no kind>'}/${verdict.name}`;
    if (verdict.status === 'skipped') {
      skipped.push(formatProblem({ file: doc.file, index: doc.index, subject, message: `skipped: ${verdict.violations[0].message}` }));
      continue;
    }
    checked++;
    if (verdict.status === 'invalid') invalid++;
    for (const v of verdict.violations) {
      problems.push({
        file: doc.file,
        index: doc.index,
        subject,
        message: `${v.path}: ${v.message}`,
        // A problem of the whole object points at its first line; a field's is found from its path.
        ...(v.path === '(root)' && documentStart(doc)),
      });
    }
  }
  if (documents.length === 0 && problems.length === 0) {
    const names = [...new Set(files.map((f) => (f === '-' ? STDIN_NAME : f)))].join(', ');
    problems.push({ file: names, message: 'no Kubernetes object in the input: nothing to validate' });
  }
  for (const line of skipped) io.stderr(`warning: ${line}`);
  if (problems.length > 0) {
    for (const p of problems) io.stderr(`error: ${formatProblem(p, documents)}`);
    const objects = invalid > 0 ? ` in ${invalid} of ${checked} object(s)` : '';
    io.stderr(`${problems.length} error(s)${objects}.`);
    return 1;
  }
  const skippedText = skipped.length > 0 ? `; ${skipped.length} of unknown kinds skipped` : '';
  io.stdout(`${checked} object(s) valid${skippedText}.\n`);
  return 0;
}

/**
 * Every document of every input, read by the CLI's input reader one input at a time, so that an
 * input the reader cannot take (a file over the size limit, YAML that exhausts the parser) is a
 * problem of that input only.
 */
function readInputs(inputs: readonly string[], io: CliIo): { documents: InputDocument[]; problems: InputProblem[] } {
  const documents: InputDocument[] = [];
  const problems: InputProblem[] = [];
  const readStdin: StdinReader = io.stdin ? () => limitedStdin(io.stdin!()) : undefined;
  for (const input of inputs.flatMap((i) => withinLimits(i, problems))) {
    try {
      const read = readInputDocuments([input], readStdin);
      documents.push(...read.documents);
      problems.push(...read.problems);
    } catch (e: any) {
      // The YAML library refuses alias expansion bombs by throwing (and may run out of stack).
      const file = input === '-' ? STDIN_NAME : input;
      problems.push({ file, message: `invalid YAML: ${e?.message ?? e}` });
    }
  }
  return { documents, problems };
}

/**
 * The inputs to read for `input`: itself when within the limits, nothing when a file is not, and
 * for a directory with a file over the limits its other files (as the reader would list them).
 */
function withinLimits(input: string, problems: InputProblem[]): string[] {
  if (input === '-') return [input];
  let stat: fs.Stats;
  try {
    stat = fs.statSync(input);
  } catch {
    return [input]; // the reader reports it
  }
  if (!stat.isDirectory()) return limitProblem(input, problems) ? [] : [input];
  let files: string[];
  try {
    files = fs.readdirSync(input).filter((n) => /\.ya?ml$/.test(n)).sort().map((n) => path.join(input, n)).filter(isFile);
  } catch {
    return [input]; // the reader reports it
  }
  const refused = files.filter((f) => limitProblem(f, problems));
  return refused.length === 0 ? [input] : files.filter((f) => !refused.includes(f));
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return true; // a dangling link: reading it reports the problem
  }
}

/** Records and returns true when a file is over the limits; an unreadable file is left to the reader. */
function limitProblem(file: string, problems: InputProblem[]): boolean {
  let message: string | undefined;
  try {
    const size = fs.statSync(file).size;
    message = size > MAX_VALIDATE_INPUT_BYTES ? sizeMessage(size) : shapeMessage(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  if (message) problems.push({ file, message });
  return message !== undefined;
}

function sizeMessage(size: number): string {
  return `${size} bytes: validate reads at most ${MAX_VALIDATE_INPUT_BYTES} bytes (4 MiB) from one input; split it (one object is at most 3 MiB for the API server)`;
}

function limitedStdin(text: string): string {
  const size = Buffer.byteLength(text, 'utf8');
  const message = size > MAX_VALIDATE_INPUT_BYTES ? sizeMessage(size) : shapeMessage(text);
  if (message) throw new Error(message);
  return text;
}

/**
 * A cheap, linear scan of the YAML text for what would make the parser slow: a block mapping
 * with more than MAX_VALIDATE_MAPPING_KEYS keys (keys counted per indentation, a shallower line
 * ending the deeper mappings; block scalars skipped), a flow mapping line with as many, or more
 * than MAX_VALIDATE_DOCUMENTS documents. It may over-count only in odd layouts (multi-line
 * quoted strings), never for the manifests kubectl or cdk8s write.
 */
function shapeMessage(text: string): string | undefined {
  const keys: number[] = [];
  let documents = 1;
  let blockScalarIndent = -1;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const m = /^( *)(.*?)\r?$/.exec(lines[n])!;
    let indent = m[1].length;
    let rest = m[2];
    if (rest === '' || rest.startsWith('#')) continue;
    if (blockScalarIndent >= 0) {
      if (indent > blockScalarIndent) continue;
      blockScalarIndent = -1;
    }
    if (indent === 0 && /^(---|\.\.\.)(\s|$)/.test(rest)) {
      if (rest.startsWith('---') && ++documents > MAX_VALIDATE_DOCUMENTS) {
        return `more than ${MAX_VALIDATE_DOCUMENTS} YAML documents (line ${n + 1}); validate reads at most ${MAX_VALIDATE_DOCUMENTS} from one input: split it`;
      }
      keys.length = 0;
      continue;
    }
    const blockIndent = indent;
    let newItem = false;
    for (let dash = /^-( +|$)/.exec(rest); dash; dash = /^-( +|$)/.exec(rest)) {
      indent += dash[0].length || 1;
      rest = rest.slice(dash[0].length);
      newItem = true;
    }
    if (keys.length > indent + 1) keys.length = indent + 1;
    if (newItem) keys[indent] = 0;
    if (/^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{[\]},][^#]*?):(?:\s|$)/.test(rest)) {
      keys[indent] = (keys[indent] ?? 0) + 1;
      if (keys[indent] > MAX_VALIDATE_MAPPING_KEYS) {
        return `a mapping with more than ${MAX_VALIDATE_MAPPING_KEYS} keys (line ${n + 1}); validate reads mappings of at most ${MAX_VALIDATE_MAPPING_KEYS} keys`;
      }
    }
    if (rest.includes('{') && (rest.match(/[^\s]:\s/g)?.length ?? 0) > MAX_VALIDATE_MAPPING_KEYS) {
      return `a flow mapping with more than ${MAX_VALIDATE_MAPPING_KEYS} keys (line ${n + 1}); validate reads mappings of at most ${MAX_VALIDATE_MAPPING_KEYS} keys`;
    }
    // A block scalar's lines are indented deeper than its key (or than its `-` when an item).
    if (/(?:^|[:\s])[|>][-+0-9]*\s*(?:#.*)?$/.test(rest)) blockScalarIndent = /^[|>]/.test(rest) ? blockIndent : indent;
  }
  return undefined;
}

/** 1-based line and column where a document's content starts. */
function documentStart(doc: InputDocument): { line: number; col: number } | undefined {
  const offset = (doc.source?.yaml.contents as { range?: number[] } | null)?.range?.[0];
  if (!doc.source || offset === undefined) return undefined;
  const before = doc.source.text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, col: offset - lineStart + 1 };
}
