import * as fs from 'fs';
import * as path from 'path';
import type { Document, Node } from 'yaml';
import { isPlainBlockText, readPlainBlockText } from './fast-yaml-reader';
import { InputLimitProblem, inputTextProblem, readBoundedText } from './input-limits';
import { parsePath } from '../core/field-path';
import { yamlPackage } from '../core/yaml-package';

/** How `-f -` is named in messages. */
export const STDIN_NAME = '<stdin>';

/** One YAML document of an input file, with where it came from. */
export interface InputDocument {
  readonly file: string;
  /** Zero-based index of the document in its file (messages show it 1-based). */
  readonly index: number;
  readonly content: any;
  /**
   * The file's text and the document as the `yaml` package parses it, to point at a failing field
   * (only on error: the fast reader parses it with `yaml` on first use).
   */
  readonly source?: { readonly text: string; readonly yaml: Document };
}

/** A problem with an input document, printed as `FILE[doc N]: path: message`. */
export interface InputProblem {
  readonly file: string;
  /** Zero-based index of the document in its file. */
  readonly index?: number;
  readonly subject?: string;
  readonly message: string;
  /** 1-based line and column in the file, where known. */
  readonly line?: number;
  readonly col?: number;
}

/** `FILE[doc N]` with N 1-based, the way every message names a document. */
export function documentLabel(file: string, index: number): string {
  return `${file}[doc ${index + 1}]`;
}

/**
 * `FILE[doc N]:LINE:COL: subject: message`. Without a line of its own, the position is that of
 * the field the message starts with (`spec.scaling.replicas: ...`), or of its deepest ancestor
 * the document has, looked up in `documents`.
 */
export function formatProblem(p: InputProblem, documents: readonly InputDocument[] = []): string {
  let where = p.index === undefined ? p.file : documentLabel(p.file, p.index);
  const position = p.line !== undefined ? { line: p.line, col: p.col ?? 1 } : fieldPosition(p, documents);
  if (position) where += `:${position.line}:${position.col}`;
  return `${where}: ${p.subject ? p.subject + ': ' : ''}${p.message}`;
}

/** A field path at the start of a message: `spec.a[0].b["x/y"]: ...`. */
const LEADING_FIELD_PATH = /^([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*): /;

function fieldPosition(p: InputProblem, documents: readonly InputDocument[]): { line: number; col: number } | undefined {
  if (p.index === undefined) return undefined;
  const source = documents.find((d) => d.file === p.file && d.index === p.index)?.source;
  const field = LEADING_FIELD_PATH.exec(p.message)?.[1];
  if (!source || !field) return undefined;
  const { isMap, isScalar, isSeq } = yamlPackage();
  let node: unknown = source.yaml.contents;
  let offset: number | undefined;
  for (const segment of parsePath(field)) {
    if (isMap(node) && typeof segment === 'string') {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
      if (!pair) break;
      offset = (pair.key as Node).range?.[0];
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
      node = node.items[segment];
      offset = (node as Node | null)?.range?.[0];
    } else {
      break;
    }
  }
  return offset === undefined ? undefined : lineAndColumn(source.text, offset);
}

/** 1-based line and column of a character offset; counted only when a message needs it. */
function lineAndColumn(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

/** Reads all of standard input; `undefined` where there is none to read. */
export type StdinReader = (() => string) | undefined;

/**
 * Reads every YAML document of every input: a file, a directory (its `*.yaml` and `*.yml` files,
 * sorted by name, not recursive) or `-` for stdin. Empty documents (a trailing `---`) are
 * skipped; unreadable inputs and YAML syntax errors become problems, not exceptions.
 */
export function readInputDocuments(inputs: readonly string[], readStdin?: StdinReader): { documents: InputDocument[]; problems: InputProblem[] } {
  const documents: InputDocument[] = [];
  const problems: InputProblem[] = [];
  for (const { file, text, problem } of inputs.flatMap((input) => readInput(input, readStdin))) {
    if (problem !== undefined) {
      problems.push({ file, ...problem });
      continue;
    }
    const plain = isPlainBlockText(text!);
    const limit = inputTextProblem(text!, !plain);
    if (limit !== undefined) {
      problems.push({ file, ...limit });
      continue;
    }
    try {
      parseDocuments(file, text!, plain, documents, problems);
    } catch (e: any) {
      problems.push(e instanceof RangeError ? stackExhaustedProblem(file, text!) : { file, message: `invalid YAML: ${firstLine(e)}` });
    }
  }
  return { documents, problems };
}

/** Most YAML errors shown for one document. */
const MAX_YAML_ERRORS_SHOWN = 20;

/** The documents of one input's text: by the fast reader where it takes the text (`plain`), else by yaml. */
function parseDocuments(file: string, text: string, plain: boolean, documents: InputDocument[], problems: InputProblem[]): void {
  const fast = plain ? readPlainBlockText(text) : undefined;
  if (fast) {
    const parsed = once(() => yamlPackage().parseAllDocuments(text));
    fast.forEach((content, index) => {
      if (content === null || content === undefined) return;
      documents.push({ file, index, content, source: { text, get yaml() { return parsed()[index] as Document; } } });
    });
    return;
  }
  const docs = yamlPackage().parseAllDocuments(text);
  // yaml records running out of stack as an error of a document too: the same as a throw.
  if (docs.some((doc: any) => doc.errors?.some((err: any) => /Maximum call stack/.test(err.message)))) throw new RangeError('Maximum call stack size exceeded');
  docs.forEach((doc: any, index: number) => {
    if (doc.errors?.length > 0) {
      // The first errors: after a malformed line yaml reports one or two per following line.
      for (const err of doc.errors.slice(0, MAX_YAML_ERRORS_SHOWN)) problems.push(yamlErrorProblem(file, index, err));
      const more = doc.errors.length - MAX_YAML_ERRORS_SHOWN;
      if (more > 0) problems.push({ file, index, message: `invalid YAML: ${more} more error(s) in this document, most following from the ones above` });
      return;
    }
    let content;
    try {
      content = doc.toJS();
    } catch (e: any) {
      // yaml throws on an alias expansion bomb or an undefined alias while converting a document.
      problems.push({ file, index, message: `invalid YAML: ${firstLine(e)}` });
      return;
    }
    if (content === null || content === undefined) return;
    documents.push({ file, index, content, source: { text, yaml: doc } });
  });
}

/**
 * The problem of a text on which the yaml parser ran out of stack: its error recovery recurses
 * once per line after some malformed lines (a tag character where a key should be, thousands of
 * lines before the end), which no limit on nesting or keys prevents. The malformed line is found
 * by parsing ever shorter beginnings of the text (halving, so at most about 20 parses) until one
 * parses and names its first error; without one, the message says what happened.
 */
export function stackExhaustedProblem(file: string, text: string): InputProblem {
  const lines = text.split('\n');
  for (let n = Math.floor(lines.length / 2); n > 0; n = Math.floor(n / 2)) {
    let docs;
    try {
      docs = yamlPackage().parseAllDocuments(lines.slice(0, n).join('\n'));
    } catch (e) {
      if (e instanceof RangeError) continue;
      break;
    }
    const found = docs.flatMap((doc: any) => doc.errors.map((err: any) => ({ err, index: docs.indexOf(doc) })))[0];
    if (!found) break;
    const problem = yamlErrorProblem(file, found.index, found.err);
    return { ...problem, message: `${problem.message} (the parser ran out of stack on the lines after it)` };
  }
  return { file, message: 'invalid YAML: the YAML parser ran out of stack on this input (a malformed line early in a long mapping?)' };
}

/** One error of the yaml package as a problem at its line and column (yaml's own position text dropped). */
function yamlErrorProblem(file: string, index: number, err: any): InputProblem {
  const at = err.linePos?.[0];
  const message = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return { file, index, message: `invalid YAML: ${message}`, ...(at && { line: at.line, col: at.col }) };
}

function firstLine(e: any): string {
  return String(e?.message ?? e).split('\n')[0];
}

function once<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}

interface InputText {
  readonly file: string;
  readonly text?: string;
  readonly problem?: InputLimitProblem;
}

function readInput(input: string, readStdin: StdinReader): InputText[] {
  if (input === '-') {
    if (!readStdin) return [{ file: STDIN_NAME, problem: { message: 'cannot read standard input' } }];
    try {
      return [{ file: STDIN_NAME, text: readStdin() }];
    } catch (e: any) {
      return [{ file: STDIN_NAME, problem: { message: `cannot read standard input: ${e.code ?? e.message}` } }];
    }
  }
  let isDirectory = false;
  try {
    isDirectory = fs.statSync(input).isDirectory();
  } catch (e: any) {
    return [{ file: input, problem: { message: `cannot read file: ${e.code ?? e.message}` } }];
  }
  if (!isDirectory) return [readFile(input)];
  let names: string[];
  try {
    names = fs.readdirSync(input).filter((n) => /\.ya?ml$/.test(n)).sort();
  } catch (e: any) {
    return [{ file: input, problem: { message: `cannot read directory: ${e.code ?? e.message}` } }];
  }
  const files = names.map((n) => path.join(input, n)).filter((f) => {
    try {
      return fs.statSync(f).isFile();
    } catch {
      return true; // a dangling link: reading it reports the problem
    }
  });
  if (files.length === 0) return [{ file: input, problem: { message: 'no *.yaml or *.yml files in the directory' } }];
  return files.map(readFile);
}

function readFile(file: string): InputText {
  try {
    const { text, problem } = readBoundedText(file);
    return problem !== undefined ? { file, problem } : { file, text };
  } catch (e: any) {
    return { file, problem: { message: `cannot read file: ${e.code ?? e.message}` } };
  }
}

/**
 * The problem of an input with no ModelDeployment document at all (nothing to translate or
 * explain), naming the inputs; none when some input could not be read or parsed, which is
 * reported already.
 */
export function noModelDeploymentProblem(
  inputs: readonly string[],
  documents: readonly InputDocument[],
  problems: readonly InputProblem[],
): InputProblem | undefined {
  if (problems.length > 0 || documents.some((d) => d.content?.kind === 'ModelDeployment')) return undefined;
  const names = [...new Set(inputs.map((i) => (i === '-' ? STDIN_NAME : i)))].join(', ');
  return { file: names, message: 'no ModelDeployment document in the input: nothing to translate (apiVersion airunway.ai/v1alpha1, kind ModelDeployment)' };
}
