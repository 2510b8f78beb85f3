import * as fs from 'fs';
import { invalidUtf8Problem, unprintableCharacterProblem } from './input-characters';
import { YamlDocumentCounter } from './yaml-document-counter';

/**
 * Limits on one input (a file or stdin) of every command, checked before the YAML parser sees it,
 * so that no input can make the CLI hang, run out of memory or overflow the parser's stack.
 *
 * - Size: `-f /dev/zero` never ends. 16 MiB holds a fleet of about 60,000 ModelDeployments, and
 *   any stream of manifests kubectl would send (it takes at most 3 MiB in one request).
 * - Keys and documents: the yaml package's time grows with the square of the keys of one mapping
 *   (it checks each key against the ones before) and of the documents of one stream (measured
 *   with yaml 2.9: 40,000 keys took over 30 s, 10,000 documents 7 s). The documents limit applies
 *   to the inputs the fast reader leaves to yaml (fast-yaml-reader.ts), whose time is linear.
 * - Nesting: both parsers recurse once per level.
 * - Characters: UTF-8, and only those YAML allows (input-characters.ts).
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;
/** Most keys in one mapping of an input. */
export const MAX_INPUT_MAPPING_KEYS = 5000;
/** Most documents in one input the yaml package reads. */
export const MAX_INPUT_DOCUMENTS = 2000;
/**
 * Most levels of nesting in an input: the limit the object checks apply too (MAX_OBJECT_DEPTH,
 * not imported: that module loads the schema validator, which `main` must not load).
 */
export const MAX_INPUT_NESTING = 100;

/**
 * The text of a file or of standard input (`fd` 0), read up to MAX_INPUT_BYTES: a longer input,
 * or one without an end (`/dev/zero`, a pipe that never closes its writer is not detected), is a
 * problem naming the limit, and bytes that are not UTF-8 are a problem naming their line. Throws
 * what the file system throws, for the caller's message.
 */
export function readBoundedText(file: string | 0): { text?: string; problem?: InputLimitProblem } {
  const fd = file === 0 ? 0 : fs.openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, chunk, 0, chunk.length, null);
      } catch (e: any) {
        if (e?.code === 'EAGAIN') continue; // a non-blocking stdin with nothing yet
        if (e?.code === 'EOF') break;
        throw e;
      }
      if (n === 0) break;
      total += n;
      if (total > MAX_INPUT_BYTES) return { problem: { message: sizeProblem(file === 0 ? undefined : sizeOf(file)) } };
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    const bytes = Buffer.concat(chunks);
    const notUtf8 = invalidUtf8Problem(bytes);
    return notUtf8 ? { problem: notUtf8 } : { text: bytes.toString('utf8') };
  } finally {
    if (fd !== 0) fs.closeSync(fd);
  }
}

function sizeOf(file: string): number | undefined {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() && stat.size > MAX_INPUT_BYTES ? stat.size : undefined;
  } catch {
    return undefined;
  }
}

function sizeProblem(size: number | undefined): string {
  const what = size !== undefined ? `${size} bytes` : `more than ${MAX_INPUT_BYTES} bytes`;
  return `${what}: cdk8s-inference reads at most ${MAX_INPUT_BYTES} bytes (16 MiB) from one input; split it`;
}

/** Why an input's text is over the limits: where (a document, line and column, when known) and what. */
export interface InputLimitProblem {
  readonly message: string;
  /** Zero-based index of the document, and the 1-based line and column, where the limit was passed. */
  readonly index?: number;
  readonly line?: number;
  readonly col?: number;
}

/**
 * Why a text read into memory (stdin in tests, a file) is over the limits, or undefined.
 * `forYaml`: the yaml package will read it (not the fast reader), so its documents are counted.
 */
export function inputTextProblem(text: string, forYaml: boolean): InputLimitProblem | undefined {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_INPUT_BYTES) return { message: sizeProblem(bytes) };
  return unprintableCharacterProblem(text) ?? inputShapeProblem(text, forYaml ? MAX_INPUT_DOCUMENTS : Infinity);
}

/**
 * A cheap, linear scan of the YAML text for what would make the parser slow or overflow its
 * stack: a block mapping with more than MAX_INPUT_MAPPING_KEYS keys (keys counted per
 * indentation, a shallower line ending the deeper mappings; block scalars skipped), a flow mapping
 * line with as many, more than `maxDocuments` documents, or more than MAX_INPUT_NESTING
 * levels of nesting (block levels by indentation and dashes, flow levels by brackets outside
 * quotes). It may over-count only in odd layouts (multi-line quoted strings holding brackets),
 * never for the manifests kubectl or cdk8s write.
 */
export function inputShapeProblem(text: string, maxDocuments: number = MAX_INPUT_DOCUMENTS): InputLimitProblem | undefined {
  const keys: number[] = [];
  const levels: number[] = []; // the columns of the open block levels
  let flowDepth = 0;
  const documents = new YamlDocumentCounter();
  let blockScalarIndent = -1;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    if (documents.read(lines[n]) && documents.index + 1 > maxDocuments) {
      return { message: `more than ${maxDocuments} YAML documents (line ${n + 1}); cdk8s-inference reads at most ${maxDocuments} from one input in this YAML style (flow collections, anchors, tags, ...): split it` };
    }
    const m = /^( *)([^]*?)\r?$/.exec(lines[n])!; // [^]: a line may hold a lone \r or U+2028
    let indent = m[1].length;
    let rest = m[2];
    if (rest === '' || rest.startsWith('#')) continue;
    if (blockScalarIndent >= 0) {
      if (indent > blockScalarIndent) continue;
      blockScalarIndent = -1;
    }
    if (indent === 0 && /^(---|\.\.\.)(\s|$)/.test(rest)) {
      keys.length = 0;
      levels.length = 0;
      flowDepth = 0;
      continue;
    }
    const blockIndent = indent;
    let newItem = false;
    if (flowDepth === 0) openLevel(levels, indent);
    for (let dash = /^-( +|$)/.exec(rest); dash; dash = /^-( +|$)/.exec(rest)) {
      indent += dash[0].length || 1;
      rest = rest.slice(dash[0].length);
      newItem = true;
      if (flowDepth === 0) openLevel(levels, indent);
    }
    const flow = flowDepthAfter(rest, flowDepth);
    flowDepth = flow.depth;
    if (levels.length + flow.deepest > MAX_INPUT_NESTING) {
      return { index: documents.index, line: n + 1, message: `nested more than ${MAX_INPUT_NESTING} levels deep; cdk8s-inference reads at most ${MAX_INPUT_NESTING} levels` };
    }
    if (keys.length > indent + 1) keys.length = indent + 1;
    if (newItem) keys[indent] = 0;
    if (/^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s#'"{[\]},][^#]*?):(?:\s|$)/.test(rest)) {
      keys[indent] = (keys[indent] ?? 0) + 1;
      if (keys[indent] > MAX_INPUT_MAPPING_KEYS) {
        return { message: `a mapping with more than ${MAX_INPUT_MAPPING_KEYS} keys (line ${n + 1}); cdk8s-inference reads mappings of at most ${MAX_INPUT_MAPPING_KEYS} keys` };
      }
    }
    if (rest.includes('{') && (rest.match(/[^\s]:\s/g)?.length ?? 0) > MAX_INPUT_MAPPING_KEYS) {
      return { message: `a flow mapping with more than ${MAX_INPUT_MAPPING_KEYS} keys (line ${n + 1}); cdk8s-inference reads mappings of at most ${MAX_INPUT_MAPPING_KEYS} keys` };
    }
    // A block scalar's lines are indented deeper than its key (or than its `-` when an item).
    if (/(?:^|[:\s])[|>][-+0-9]*\s*(?:#.*)?$/.test(rest)) blockScalarIndent = /^[|>]/.test(rest) ? blockIndent : indent;
  }
  return undefined;
}

/** A block level opens at `column`, closing the levels at that column or deeper. */
function openLevel(levels: number[], column: number): void {
  while (levels.length > 0 && levels[levels.length - 1] >= column) levels.pop();
  levels.push(column);
}

/**
 * The flow nesting after a line, and the deepest within it: brackets outside quotes and comments
 * open and close levels.
 */
function flowDepthAfter(line: string, depth: number): { depth: number; deepest: number } {
  let deepest = depth;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '#' && (i === 0 || line[i - 1] === ' ')) {
      break;
    } else if (c === '[' || c === '{') {
      deepest = Math.max(deepest, ++depth);
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
  }
  return { depth, deepest };
}
