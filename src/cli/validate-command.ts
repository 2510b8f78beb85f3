import { formatProblem, InputDocument, InputProblem, readInputDocuments, STDIN_NAME } from './input-documents';
import type { CliIo } from './io';
import { validateObject } from '../schema-validation/object-validation';

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
 * Every document of every input, by the CLI's input reader: an input over its limits
 * (src/cli/input-limits.ts) or that the YAML parser refuses is a problem of that input only.
 */
function readInputs(inputs: readonly string[], io: CliIo): { documents: InputDocument[]; problems: InputProblem[] } {
  return readInputDocuments(inputs, io.stdin?.bind(io));
}

/** 1-based line and column where a document's content starts. */
function documentStart(doc: InputDocument): { line: number; col: number } | undefined {
  const offset = (doc.source?.yaml.contents as { range?: number[] } | null)?.range?.[0];
  if (!doc.source || offset === undefined) return undefined;
  const before = doc.source.text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, col: offset - lineStart + 1 };
}
