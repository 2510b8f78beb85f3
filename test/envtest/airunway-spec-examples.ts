/**
 * AI Runway's own example manifests, extracted from the specification documents in
 * `../shared/spec` (next to `upstreamDir()`): every `airunway.ai/v1alpha1` ModelDeployment and
 * InferenceProviderConfig written out in them, for the CRD comparison of
 * controller-construct-on-api-server.test.ts.
 *
 * Two kinds of example:
 * - `document`: a complete manifest (`apiVersion: airunway.ai/v1alpha1`, `kind: ModelDeployment`
 *   or `InferenceProviderConfig`), taken as written.
 * - `fragment` (AI Runway's own documents only: file names with `airunway`): a walk-through that shows only `spec:` (and maybe `metadata:`) of a record, e.g.
 *   "10.2 CPU deployment" or the legacy InferenceProviderConfig migration's before/after. It is
 *   wrapped into a manifest: `apiVersion: airunway.ai/v1alpha1`, the kind its spec implies
 *   (`capabilities`/`selectionRules` → InferenceProviderConfig, else ModelDeployment), its own
 *   metadata, else a name made from the file and line and, for a ModelDeployment, the namespace
 *   `FRAGMENT_NAMESPACE`. A YAML block that holds several fragments (`# before` / `# after`, each
 *   a top-level `spec:`) gives one example each.
 *
 * Where they are found:
 * - Markdown (`*.md`): fenced ```yaml blocks, parsed as YAML.
 * - Web-page captures (`seed-*.txt`): the YAML is there but its indentation was lost in the
 *   capture (every line starts at column 0). A block starts at a line
 *   `apiVersion: airunway.ai/v1alpha1` (document) or `spec:` (fragment) and is re-indented by
 *   walking the upstream CRD's schema: each `key:` line goes under the deepest open object that
 *   declares `key` (or into the open map — labels, annotations, `args` — when no open object
 *   declares it), `- ` items under the open array, and the lines after a `key: |` up to the next
 *   `key:` line are that block scalar. Comments are dropped. A lowerCamelCase key no open object
 *   declares is kept in the innermost one (so an unknown field reaches the server and is judged
 *   there); any other line ends the block (the page's prose resumes). The re-indented text is
 *   kept (`text`) so a surprising outcome can be read.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { readCrds } from './crds';
import { KubeObject } from './kube-client';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';

export const AIRUNWAY_API_VERSION = 'airunway.ai/v1alpha1';
export const FRAGMENT_NAMESPACE = 'airunway-spec-examples';
const KINDS = ['ModelDeployment', 'InferenceProviderConfig'];

/** One example manifest from the spec. */
export interface SpecExample {
  /** `<file>:<line>` of the block's first line (1-based). */
  readonly id: string;
  readonly source: 'document' | 'fragment';
  /** `fenced` (a Markdown YAML block) or `re-indented` (a capture whose indentation was lost). */
  readonly how: 'fenced' | 're-indented';
  readonly manifest: KubeObject;
  /** The YAML text the manifest was parsed from (re-indented for captures). */
  readonly text: string;
}

/** `../shared/spec`, the sibling of the upstream directory. */
export function specDir(): string {
  return path.resolve(upstreamDir(), '..', 'spec');
}

/** The spec files searched: every `*.md` and `seed-*.txt`, sorted. */
export function specFiles(dir: string = specDir()): string[] {
  return fs.readdirSync(dir).filter((f) => f.endsWith('.md') || /^seed-.*\.txt$/.test(f)).sort().map((f) => path.join(dir, f));
}

/** Every ModelDeployment and InferenceProviderConfig example of the spec files. */
export function airunwaySpecExamples(dir: string = specDir()): SpecExample[] {
  const schemas = upstreamRootSchemas();
  const out: SpecExample[] = [];
  for (const file of specFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    const name = path.basename(file);
    if (file.endsWith('.md')) out.push(...fromMarkdown(name, text));
    else out.push(...fromCapture(name, text, schemas));
  }
  return out;
}

// ---- Markdown: fenced YAML blocks ----

function fromMarkdown(file: string, text: string): SpecExample[] {
  const lines = text.split('\n');
  const out: SpecExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i])) continue;
    let j = i + 1;
    while (j < lines.length && !/^```\s*$/.test(lines[j])) j++;
    for (const chunk of splitChunks(lines.slice(i + 1, j), i + 2)) {
      const example = toExample(file, chunk.line, chunk.text, 'fenced');
      if (example) out.push(example);
    }
    i = j;
  }
  return out;
}

/**
 * A block's documents: split at `---`, and where a top-level key repeats (two `spec:` fragments
 * in one block), at the line of the repeat — or at the comment lines just above it.
 */
function splitChunks(lines: string[], firstLine: number): Array<{ line: number; text: string }> {
  const chunks: Array<{ line: number; lines: string[] }> = [];
  let current: { line: number; lines: string[]; keys: Set<string> } = { line: firstLine, lines: [], keys: new Set() };
  const flush = (): void => {
    if (current.lines.some((l) => l.trim() && !l.trim().startsWith('#'))) chunks.push(current);
  };
  lines.forEach((line, k) => {
    if (/^---\s*$/.test(line)) {
      flush();
      current = { line: firstLine + k + 1, lines: [], keys: new Set() };
      return;
    }
    const key = /^([A-Za-z][\w.-]*):/.exec(line)?.[1];
    if (key && current.keys.has(key)) {
      // Comment lines right above the repeated key belong to the next fragment.
      let n = current.lines.length;
      while (n > 0 && /^#/.test(current.lines[n - 1])) n--;
      const carried = current.lines.splice(n);
      flush();
      current = { line: firstLine + k - carried.length, lines: carried, keys: new Set() };
    }
    if (key) current.keys.add(key);
    current.lines.push(line);
  });
  flush();
  return chunks.map((c) => ({ line: c.line, text: c.lines.join('\n') }));
}

/** The example a YAML text is, or undefined when it is neither a record of ours nor a fragment of one. */
function toExample(file: string, line: number, text: string, how: SpecExample['how']): SpecExample | undefined {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(doc)) return undefined;
  const id = `${file}:${line}`;
  if (doc.apiVersion === AIRUNWAY_API_VERSION && KINDS.includes(doc.kind as string)) {
    return { id, source: 'document', how, manifest: doc as KubeObject, text };
  }
  const keys = Object.keys(doc);
  if (!fragmentsFrom(file) || doc.apiVersion !== undefined || doc.kind !== undefined || !isObject(doc.spec) || keys.some((k) => k !== 'metadata' && k !== 'spec')) {
    return undefined;
  }
  return { id, source: 'fragment', how, manifest: wrapFragment(file, line, doc), text };
}

/** Fragments are taken from AI Runway's own documents only (the other seed systems have `spec:` blocks of their own kinds). */
function fragmentsFrom(file: string): boolean {
  return file.includes('airunway');
}

function wrapFragment(file: string, line: number, doc: Record<string, any>): KubeObject {
  const kind = fragmentKind(doc.spec);
  const metadata: Record<string, any> = { ...(isObject(doc.metadata) ? doc.metadata : {}) };
  metadata.name ??= `${file.replace(/\.[a-z]+$/, '').replace(/[^a-z0-9]+/g, '-')}-${line}`;
  if (kind === 'ModelDeployment') metadata.namespace ??= FRAGMENT_NAMESPACE;
  else delete metadata.namespace;
  return { apiVersion: AIRUNWAY_API_VERSION, kind, metadata, spec: doc.spec };
}

function fragmentKind(spec: Record<string, unknown>): string {
  return 'capabilities' in spec || 'selectionRules' in spec ? 'InferenceProviderConfig' : 'ModelDeployment';
}

// ---- Captures: YAML whose indentation was lost, re-indented along the CRD schema ----

interface RootSchemas {
  readonly [kind: string]: Schema;
}

type Schema = Record<string, any>;

/** The upstream CRDs' root schemas, with an object-meta schema for `metadata` (the CRDs say only `type: object`). */
function upstreamRootSchemas(): RootSchemas {
  const dir = path.join(upstreamDir(), 'airunway');
  const crds = readCrds([path.join(dir, 'airunway.ai_modeldeployments.yaml'), path.join(dir, 'airunway.ai_inferenceproviderconfigs.yaml')]);
  const map = { type: 'object', additionalProperties: { type: 'string' } };
  const objectMeta = { type: 'object', properties: { name: { type: 'string' }, namespace: { type: 'string' }, labels: map, annotations: map } };
  const out: Record<string, Schema> = {};
  for (const { manifest } of crds) {
    const root = structuredClone(manifest.spec.versions[0].schema.openAPIV3Schema);
    root.properties.metadata = objectMeta;
    out[manifest.spec.names.kind] = root;
  }
  return out;
}

function fromCapture(file: string, text: string, schemas: RootSchemas): SpecExample[] {
  const lines = text.split('\n');
  const out: SpecExample[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i].trimEnd();
    let kind: string | undefined;
    if (line === `apiVersion: ${AIRUNWAY_API_VERSION}`) {
      kind = /^kind: (\S+)/.exec(lines[i + 1] ?? '')?.[1];
      if (!kind || !KINDS.includes(kind)) kind = undefined;
    } else if (line === 'spec:' && fragmentsFrom(file)) {
      kind = fragmentKind(Object.fromEntries([[keyOf(lines[i + 1] ?? '') ?? '', true]]));
    }
    if (!kind) {
      i++;
      continue;
    }
    const block = reindent(lines, i, schemas[kind]);
    const example = toExample(file, i + 1, block.text, 're-indented');
    if (example) out.push(example);
    i = Math.max(block.end, i + 1);
  }
  return out;
}

function keyOf(line: string): string | undefined {
  return /^(?:- )?([^\s:#"'{}[\]][^:]*?):(?:\s|$)/.exec(line)?.[1];
}

interface Frame {
  /** Schema of the object, map or array this frame is. */
  readonly schema: Schema;
  /** Column of its children. */
  readonly indent: number;
}

/** Re-indents the YAML block starting at `lines[start]` along `root`; `end` is the first line after it. */
function reindent(lines: string[], start: number, root: Schema): { text: string; end: number } {
  const stack: Frame[] = [{ schema: root, indent: 0 }];
  const out: string[] = [];
  let blockScalarIndent: number | undefined;
  let i = start;
  for (; i < lines.length; i++) {
    const raw = lines[i].trimEnd();
    if (blockScalarIndent !== undefined) {
      if (!/^[A-Za-z][\w./-]*:(\s|$)/.test(raw)) {
        out.push(' '.repeat(blockScalarIndent) + raw);
        continue;
      }
      blockScalarIndent = undefined;
    }
    if (raw.startsWith('#')) continue;
    const line = stripComment(raw);
    if (line === '') break;
    if (line.startsWith('- ')) {
      let a = stack.length - 1;
      while (a > 0 && stack[a].schema.type !== 'array') a--;
      if (a === 0) break;
      stack.length = a + 1;
      const array = stack[a];
      const itemSchema: Schema = array.schema.items ?? {};
      const rest = line.slice(2);
      const key = keyOf(rest);
      if (key === undefined || itemSchema.type !== 'object') {
        out.push(`${' '.repeat(array.indent)}- ${rest}`);
        continue;
      }
      const item: Frame = { schema: itemSchema, indent: array.indent + 2 };
      stack.push(item);
      out.push(`${' '.repeat(array.indent)}- ${rest}`);
      blockScalarIndent = openValue(stack, item, key, rest);
      continue;
    }
    const key = keyOf(line);
    if (key === undefined) break;
    const at = frameFor(stack, key);
    if (at === undefined) break;
    stack.length = at + 1;
    const frame = stack[at];
    out.push(' '.repeat(frame.indent) + line);
    blockScalarIndent = openValue(stack, frame, key, line);
  }
  return { text: out.join('\n'), end: i };
}

/**
 * After `key: value` was written in `frame`: a key without a value opens its object, map or
 * array; `key: |` opens a block scalar (its indent is returned).
 */
function openValue(stack: Frame[], frame: Frame, key: string, line: string): number | undefined {
  const value = line.slice(line.indexOf(':') + 1).trim();
  if (/^[|>][-+]?$/.test(value)) return frame.indent + 2;
  if (value !== '') return undefined;
  stack.push({ schema: childSchema(frame.schema, key) ?? { type: 'object' }, indent: frame.indent + 2 });
  return undefined;
}

/** Index of the frame `key` belongs in, or undefined when the line is not part of the block. */
function frameFor(stack: Frame[], key: string): number | undefined {
  const declares = (f: Frame): boolean => f.schema.type !== 'array' && isObject(f.schema.properties) && key in f.schema.properties;
  let deepest: number | undefined;
  for (let k = stack.length - 1; k >= 0 && deepest === undefined; k--) if (declares(stack[k])) deepest = k;
  const top = stack.length - 1;
  const topIsMap = isMap(stack[top].schema);
  if (topIsMap && !declares(stack[top]) && deepest === undefined) return top;
  if (deepest !== undefined) return deepest;
  if (/^[a-z][A-Za-z0-9]*$/.test(key) && stack[top].schema.type !== 'array') return top;
  return undefined;
}

function childSchema(schema: Schema, key: string): Schema | undefined {
  if (isObject(schema.properties) && key in schema.properties) return schema.properties[key];
  if (isObject(schema.additionalProperties)) return schema.additionalProperties;
  return undefined;
}

function isMap(schema: Schema): boolean {
  return schema.type === 'object' && !isObject(schema.properties) && (isObject(schema.additionalProperties) || schema['x-kubernetes-preserve-unknown-fields'] === true);
}

/** The line without a trailing `# comment` (a `#` outside quotes, after whitespace). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let k = 0; k < line.length; k++) {
    const c = line[k];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (k === 0 || /\s/.test(line[k - 1]))) {
      return line.slice(0, k).trimEnd();
    }
  }
  return line.trimEnd();
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
