/**
 * Hostile `cdk8s-inference synth` inputs for the CLI's contract fuzzing (issue 14): each input
 * starts as a case of the seeded ModelDeployment corpus (scripts/cli-corpus.ts, every provider,
 * valid and invalid) and is then mutated — wrong types, non-finite and out-of-range numbers,
 * prototype names as map keys, megabyte strings, control characters, invalid UTF-8, dangerous
 * overrides, tolerations and env var names the API server refuses, bad Gateway documents — and
 * its YAML text made hostile (aliases, deep nesting, duplicate keys, tabs, tags, directives, flow
 * style). The same seed and index give the same bytes, so a failing case reproduces from them.
 */
import { stringify } from 'yaml';
import { Rng } from './rng';
import { generateCase } from '../../scripts/cli-corpus';

/** One generated input: the file's bytes and the routing flags it is run with. */
export interface HostileInput {
  /** The input file's content (raw bytes: some inputs are not valid UTF-8). */
  readonly bytes: Buffer;
  /** Extra `synth` flags (`--gateway`, `--inference-pool-api-version`) the corpus case asked for. */
  readonly flags: readonly string[];
  /** The mutations applied, for figures and for a failure's message. */
  readonly mutations: readonly string[];
}

type Json = any;

/**
 * Text spliced in after stringifying: a value of the generated objects may be a token
 * `RAWTOKEN<n>X`, replaced in the YAML text by raw bytes (a literal `1e309`, `.nan`, an alias,
 * a tag, invalid UTF-8) that no JavaScript value stringifies to.
 */
class RawTokens {
  private readonly raw: Buffer[] = [];
  token(bytes: string | Buffer): string {
    this.raw.push(typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes);
    return `RAWTOKEN${this.raw.length - 1}X`;
  }
  splice(text: string): Buffer {
    const parts: Buffer[] = [];
    let last = 0;
    for (const m of text.matchAll(/RAWTOKEN(\d+)X/g)) {
      parts.push(Buffer.from(text.slice(last, m.index), 'utf8'), this.raw[Number(m[1])]);
      last = m.index + m[0].length;
    }
    parts.push(Buffer.from(text.slice(last), 'utf8'));
    return Buffer.concat(parts);
  }
}

const PROTO_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];

/**
 * An own, enumerable property even for `__proto__` (plain assignment would set the prototype);
 * nothing when an earlier mutation left no object there (a case without metadata, a string).
 */
function setKey(obj: Json, key: string, value: unknown): void {
  if (obj === null || typeof obj !== 'object') return;
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function ensure(obj: Json, ...path: string[]): Json {
  let cur = obj;
  for (const p of path) {
    if (!cur[p] || typeof cur[p] !== 'object' || Array.isArray(cur[p])) setKey(cur, p, {});
    cur = cur[p];
  }
  return cur;
}

function hostileNumber(rng: Rng, raw: RawTokens): unknown {
  return rng.pick<() => unknown>([
    () => Infinity,
    () => -Infinity,
    () => NaN,
    () => raw.token('.inf'),
    () => raw.token('-.Inf'),
    () => raw.token('.NaN'),
    () => raw.token('1e309'),
    () => raw.token('-1e309'),
    () => 2147483648,
    () => 4294967296,
    () => 2 ** 53 + 2,
    () => -1,
    () => -2147483649,
    () => 0,
    () => 1.5,
    () => 1e-320,
    () => raw.token('0x7fffffff'),
    () => raw.token('0o777'),
    () => raw.token('1_000'),
    () => '12',
    () => true,
  ])();
}

function oddCharacters(rng: Rng, raw: RawTokens): string {
  return rng.pick<() => string>([
    () => 'a\u0000b',
    () => 'tab\there',
    () => 'line\nbreak',
    () => 'cr\rreturn',
    () => '\u001b[31mred',
    () => '\u007f',
    () => '\uFEFFbom',
    () => 'rtl\u202Egnp.exe',
    () => '\u200Fmark',
    () => 'lone \uD800 surrogate',
    () => 'zero\u200Bwidth',
    () => 'ünïcødé',
    () => '😀',
    () => ' leading and trailing ',
    () => '',
    () => raw.token(Buffer.from([0x22, 0x61, 0xff, 0xfe, 0x62, 0x22])), // "a<ff><fe>b" quoted
    () => raw.token(Buffer.from([0x61, 0xc3, 0x28, 0x62])), // an invalid 2-byte sequence, plain
    () => raw.token(Buffer.from([0x61, 0xed, 0xa0, 0x80])), // an encoded surrogate
    () => raw.token(Buffer.from([0x61, 0x00, 0x62])), // a raw NUL in a plain scalar
    () => raw.token('"escaped \\x7f\\u009b\\uFFFE\\0 and NEL \\N"'), // characters YAML carries only escaped
  ])();
}

/**
 * A string at a limit: a label value (63), a name (253), a header match (4096), a ConfigMap-sized
 * value, and one over an object's 1.5 MiB (larger ones cost the suite time and test nothing more).
 */
function longString(rng: Rng): string {
  const length = rng.pick([64, 254, 4097, 70_000, 1_600_000]);
  const unit = rng.pick(['a', 'x-', 'é', '0']);
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

function hostileString(rng: Rng, raw: RawTokens): string {
  return rng.chance(0.25) ? longString(rng) : oddCharacters(rng, raw);
}

function wrongType(rng: Rng, raw: RawTokens): unknown {
  return rng.pick<() => unknown>([
    () => null,
    () => 5,
    () => 'text',
    () => true,
    () => [],
    () => ['a', 1],
    () => ({}),
    () => ({ nested: { deeper: 1 } }),
    () => raw.token('!!binary aGVsbG8='),
    () => raw.token('!!timestamp 2001-12-14t21:59:43.10-05:00'),
    () => raw.token('!custom tagged'),
    () => raw.token('!!set {a, b}'),
    () => hostileNumber(rng, raw),
    () => hostileString(rng, raw),
  ])();
}

/** Fields of a ModelDeployment spec a mutation may hit, as paths. */
const SPEC_PATHS: ReadonlyArray<readonly string[]> = [
  ['model'], ['model', 'id'], ['model', 'source'], ['model', 'servedName'], ['model', 'storage'], ['model', 'storage', 'volumes'],
  ['provider'], ['provider', 'name'], ['provider', 'overrides'],
  ['engine'], ['engine', 'type'], ['engine', 'contextLength'], ['engine', 'args'], ['engine', 'extraArgs'], ['engine', 'image'],
  ['engine', 'trustRemoteCode'], ['engine', 'enablePrefixCaching'],
  ['serving'], ['serving', 'mode'], ['scaling'], ['scaling', 'replicas'], ['scaling', 'prefill'], ['scaling', 'decode', 'replicas'],
  ['resources'], ['resources', 'gpu'], ['resources', 'gpu', 'count'], ['resources', 'gpu', 'type'], ['resources', 'cpu'], ['resources', 'memory'],
  ['env'], ['secrets'], ['secrets', 'huggingFaceToken'], ['podTemplate'], ['podTemplate', 'metadata', 'labels'],
  ['nodeSelector'], ['tolerations'], ['gateway'], ['gateway', 'enabled'], ['gateway', 'modelName'], ['image'],
];

const NUMERIC_PATHS: ReadonlyArray<readonly string[]> = [
  ['scaling', 'replicas'], ['resources', 'gpu', 'count'], ['engine', 'contextLength'], ['resources', 'cpu'], ['resources', 'memory'],
  ['scaling', 'prefill', 'replicas'], ['scaling', 'decode', 'gpu', 'count'],
];

function setPath(md: Json, path: readonly string[], value: unknown): void {
  const parent = ensure(md, 'spec', ...path.slice(0, -1));
  setKey(parent, path[path.length - 1], value);
}

const BAD_NAMES = ['a/b', '..', '.', 'A', 'a_b', '-a', 'a-', '%2e%2e', 'a'.repeat(254), 'x'.repeat(64), 'ns\u0000', 'café', '', ' ', 'a\nb'];

/** Overrides that go below Pod Security "baseline", or that are not the provider's shape at all. */
function hostileOverrides(rng: Rng, raw: RawTokens): unknown {
  const podSpec = rng.pick<() => Json>([
    () => ({ volumes: [{ name: 'host', hostPath: { path: '/' } }] }),
    () => ({ volumes: [] }),
    () => ({ volumes: [{ name: 'shm', emptyDir: {} }, { name: 'shm', emptyDir: {} }] }),
    () => ({ hostNetwork: true }),
    () => ({ hostPID: true, hostIPC: true }),
    () => ({ containers: [{ name: 'x', image: 'busybox', securityContext: { privileged: true } }] }),
    () => ({ containers: [{ name: 'main', securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }] }),
    () => ({ containers: [{ name: 'main', ports: [{ containerPort: 8000, hostPort: 80 }] }] }),
    () => ({ initContainers: [{ name: 'init', image: 'busybox' }] }),
    () => ({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }),
    () => ({ containers: [{ name: 'main', env: [{ name: 'A=B', value: '1' }] }] }),
    () => ({ tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }),
    () => ({ securityContext: { runAsUser: hostileNumber(rng, raw) } }),
    () => ({ terminationGracePeriodSeconds: hostileNumber(rng, raw) }),
    () => ({ unknownPodField: true }),
    () => ({ nodeSelector: { [rng.pick(PROTO_KEYS)]: 'x' } }),
  ])();
  return rng.pick<() => unknown>([
    () => null,
    () => ({ spec: 5 }),
    () => ({ spec: null }),
    () => ({ spec: [] }),
    () => ({ spec: { template: { spec: podSpec } } }),
    () => ({ spec: { template: { spec: null } } }),
    () => ({ spec: { template: { metadata: { labels: { 'bad key!': 'v', [rng.pick(PROTO_KEYS)]: 'x' } } } } }),
    () => ({ spec: { services: { VllmWorker: { extraPodSpec: podSpec } } } }),
    () => ({ spec: { components: { VllmWorker: { extraPodSpec: { mainContainer: { env: [{ name: '', value: 'x' }] } } } } } }),
    () => ({ spec: { rayClusterConfig: { headGroupSpec: { template: { spec: podSpec } } } } }),
    () => ({ spec: { template: podSpec } }),
    () => ({ routerMode: hostileNumber(rng, raw) }),
    () => ({ spec: { replicas: hostileNumber(rng, raw) } }),
    () => ({ resource: { count: hostileNumber(rng, raw) } }),
    () => ({ [rng.pick(PROTO_KEYS)]: { polluted: true } }),
    () => ({ spec: { [rng.pick(PROTO_KEYS)]: { polluted: true } } }),
    () => ({ unknown: { field: hostileString(rng, raw) } }),
    () => ({ metadata: { labels: { ok: hostileString(rng, raw) } } }),
  ])();
}

function protoKeyed(rng: Rng, value: unknown): Json {
  const out: Json = {};
  setKey(out, rng.pick(PROTO_KEYS), value);
  if (rng.chance(0.5)) setKey(out, 'ordinary', 'x');
  return out;
}

const HOSTILE_TOLERATIONS: readonly Json[] = [
  { key: 'k', operator: 'Exists', value: 'v' },
  { operator: 'Equal', value: 'v' },
  { key: 'k', operator: 'Sometimes' },
  { key: 'k', effect: 'NoWhenever' },
  { key: 'bad key!', operator: 'Exists' },
  { key: 'k', effect: 'NoSchedule', tolerationSeconds: 30 },
  { key: 'k', operator: 'Equal', value: 'x'.repeat(70) },
  { key: 'k', operator: 'Equal', value: 'a b' },
  { key: 'k', operator: 'Lt', value: 'abc' },
  { key: 'k', tolerationSeconds: Infinity, effect: 'NoExecute' },
  {},
  'not-a-toleration',
];

const HOSTILE_ENV: readonly Json[] = [
  { name: '', value: 'x' },
  { name: 'A=B', value: 'x' },
  { name: 'tab\tname', value: 'x' },
  { name: 'ünï', value: 'x' },
  { name: 'NUL\u0000', value: 'x' },
  { name: 'X'.repeat(300), value: 'x' },
  { name: 'OK', value: 5 },
  { name: 'OK', valueFrom: { secretKeyRef: { name: 'Bad_Name', key: 'k' } } },
  { name: 'OK', value: 'x', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  { value: 'no name' },
  'A=B',
];

/** The ModelDeployment-level mutations: each changes `md` (a ModelDeployment object) in place. */
const MD_MUTATIONS: Readonly<Record<string, (rng: Rng, md: Json, raw: RawTokens) => void>> = {
  wrongType: (rng, md, raw) => setPath(md, rng.pick(SPEC_PATHS), wrongType(rng, raw)),
  hostileNumber: (rng, md, raw) => setPath(md, rng.pick(NUMERIC_PATHS), hostileNumber(rng, raw)),
  hostileString: (rng, md, raw) => setPath(md, rng.pick([['model', 'id'], ['model', 'servedName'], ['engine', 'image'], ['secrets', 'huggingFaceToken'], ['gateway', 'modelName'], ['resources', 'gpu', 'type']]), hostileString(rng, raw)),
  engineArgs: (rng, md, raw) => {
    const args = ensure(md, 'spec', 'engine', 'args');
    setKey(args, rng.chance(0.5) ? rng.pick(PROTO_KEYS) : rng.pick(['max-model-len', 'dtype', 'a b', '--x', '']), rng.pick<unknown>(['4096 --trust-remote-code', 'x\ny', hostileString(rng, raw), wrongType(rng, raw), '1']));
  },
  extraArgs: (rng, md, raw) => setPath(md, ['engine', 'extraArgs'], [rng.pick<unknown>(['--trust-remote-code', '', '--a b', hostileString(rng, raw), 5, null, {}, rng.pick(PROTO_KEYS)])]),
  labels: (rng, md, raw) => {
    const labels = ensure(md, 'spec', 'podTemplate', 'metadata', 'labels');
    const key = rng.pick([rng.pick(PROTO_KEYS), 'bad key', 'a/b/c', '-x', `${'a'.repeat(64)}`, 'example.com/ok', 'x'.repeat(254) + '/y']);
    setKey(labels, key, rng.pick<unknown>(['ok', 'line\nbreak', 'x'.repeat(64), hostileString(rng, raw), 5, null, true, {}]));
  },
  annotations: (rng, md, raw) => {
    const annotations = ensure(md, 'spec', 'podTemplate', 'metadata', 'annotations');
    setKey(annotations, rng.pick([...PROTO_KEYS, 'bad key', 'ok']), rng.chance(0.3) ? longString(rng) : hostileString(rng, raw));
  },
  metadataLabels: (rng, md, raw) => setKey(md.metadata, rng.pick(['labels', 'annotations']), protoKeyed(rng, rng.chance(0.5) ? 'x' : hostileString(rng, raw))),
  nodeSelector: (rng, md, raw) => setPath(md, ['nodeSelector'], rng.chance(0.6) ? protoKeyed(rng, rng.pick<unknown>(['x', 5, null, hostileString(rng, raw)])) : wrongType(rng, raw)),
  tolerations: (rng, md) => setPath(md, ['tolerations'], [rng.pick(HOSTILE_TOLERATIONS), ...(rng.chance(0.3) ? [{ key: 'ok', operator: 'Exists' }] : [])]),
  env: (rng, md) => setPath(md, ['env'], [rng.pick(HOSTILE_ENV)]),
  overrides: (rng, md, raw) => {
    const provider = ensure(md, 'spec', 'provider');
    setKey(provider, 'overrides', hostileOverrides(rng, raw));
  },
  badName: (rng, md) => setKey(md.metadata, rng.pick(['name', 'namespace']), rng.pick<unknown>([...BAD_NAMES, 5, null, [], {}])),
  metadataWrongType: (rng, md, raw) => setKey(md, rng.pick(['metadata', 'spec', 'apiVersion', 'kind', 'status']), wrongType(rng, raw)),
  protoTopLevel: (rng, md) => setKey(rng.chance(0.5) ? md : ensure(md, 'spec'), rng.pick(PROTO_KEYS), { polluted: true }),
  storage: (rng, md, raw) => setPath(md, ['model', 'storage'], { volumes: [{ name: rng.pick(['shm', 'dshm', 'model-cache', ...BAD_NAMES]), purpose: rng.pick(['modelCache', 'custom', 'bogus']), size: rng.pick<unknown>(['10Gi', hostileNumber(rng, raw), '-1Gi', '1e309', 'Infinity']), mountPath: rng.pick(['/dev/shm', '/', '/models', 'relative', '/a/../b', hostileString(rng, raw)]) }] }),
};

/** Gateway documents with hostile names, labels or spec. */
function hostileGateway(rng: Rng, raw: RawTokens): Json {
  const gw: Json = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'Gateway',
    metadata: { name: 'inference-gateway', namespace: 'gw-ns' },
    spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
  };
  rng.pick<() => void>([
    () => (gw.metadata.name = rng.pick(BAD_NAMES)),
    () => (gw.metadata.namespace = rng.pick(BAD_NAMES)),
    () => (gw.metadata.labels = protoKeyed(rng, 'x')),
    () => (gw.metadata.annotations = protoKeyed(rng, hostileString(rng, raw))),
    () => (gw.spec = rng.pick<unknown>([5, null, 'text', [], {}])),
    () => (gw.spec.listeners = [{ name: 'http', port: hostileNumber(rng, raw), protocol: 'HTTP' }]),
    () => (gw.spec.listeners[0].allowedRoutes = { namespaces: { from: 'Selector', selector: { matchLabels: protoKeyed(rng, 'x') } } }),
    () => setKey(gw.spec, rng.pick(PROTO_KEYS), { polluted: true }),
    () => (gw.metadata = rng.pick<unknown>([null, 'x', []])),
  ])();
  return gw;
}

/** Whole documents that are not a ModelDeployment's shape at all. */
function strangeDocument(rng: Rng, raw: RawTokens): Json {
  return rng.pick<() => Json>([
    () => 5,
    () => 'just a string',
    () => [1, 2, 3],
    () => ({ apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment' }),
    () => ({ apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: 'x' }, spec: wrongType(rng, raw) }),
    () => ({ apiVersion: 'airunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name: rng.pick(['vllm', ...BAD_NAMES]) }, spec: wrongType(rng, raw), status: { ready: wrongType(rng, raw) } }),
    () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
    () => ({ kind: 'ModelDeployment', metadata: { name: 'no-api-version' }, spec: { model: { id: 'a/b' } } }),
    () => protoKeyed(rng, { apiVersion: 'airunway.ai/v1alpha1' }),
  ])();
}

/** YAML text of one document, made hostile at the syntax level. */
function hostileYamlText(rng: Rng, text: string): { text: string; mutation: string } {
  const kind = rng.weighted({
    aliasReuse: 3,
    undefinedAlias: 2,
    aliasBomb: 1,
    deepNesting: 2,
    duplicateKey: 2,
    tabs: 2,
    flowStyle: 3,
    yaml11: 2,
    bomAndCrlf: 2,
    documentEnd: 1,
    mergeKey: 1,
    truncated: 2,
    garbage: 1,
    manyKeys: 1,
    longLine: 1,
  });
  const lines = text.split('\n');
  const at = rng.int(0, Math.max(0, lines.length - 2));
  const indent = /^ */.exec(lines[at])![0];
  switch (kind) {
    case 'aliasReuse':
      return { mutation: 'yaml:aliasReuse', text: text.replace(/^(metadata:)/m, '$1 &meta').replace(/^(\s+nodeSelector:).*$/m, '$1 *meta') + (rng.chance(0.5) ? 'extra: *meta\n' : '') };
    case 'undefinedAlias':
      return { mutation: 'yaml:undefinedAlias', text: [...lines.slice(0, at + 1), `${indent}nodeSelector: *nope`, ...lines.slice(at + 1)].join('\n') };
    case 'aliasBomb': {
      const levels = rng.int(5, 12);
      let bomb = 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
      for (let i = 1; i < levels; i++) bomb += `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
      return { mutation: 'yaml:aliasBomb', text: text.replace(/^spec:\n/m, `spec:\n  bomb:\n${bomb.replace(/^/gm, '    ').trimEnd()}\n`) };
    }
    case 'deepNesting': {
      const depth = rng.pick([50, 99, 100, 101, 150, 700, 5000]);
      const flow = rng.chance(0.5);
      const nested = flow ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `\n${Array.from({ length: depth }, (_, i) => `${'  '.repeat(i + 2)}k${i}:`).join('\n')} 1`;
      return { mutation: `yaml:deepNesting${depth}${flow ? 'Flow' : 'Block'}`, text: text.replace(/^spec:\n/m, `spec:\n  deep: ${nested}\n`) };
    }
    case 'duplicateKey':
      return { mutation: 'yaml:duplicateKey', text: [...lines.slice(0, at + 1), lines[at], ...lines.slice(at + 1)].join('\n') };
    case 'tabs':
      return { mutation: 'yaml:tabs', text: lines.map((l, i) => (i === at || rng.chance(0.1) ? l.replace(/^ {2}/, '\t') : l)).join('\n') };
    case 'flowStyle':
      return { mutation: 'yaml:flowStyle', text: `${stringifyFlow(text)}\n` };
    case 'yaml11':
      return {
        mutation: 'yaml:yaml11',
        text: `%YAML 1.1\n---\n${text.replace(/: (true|false)$/gm, (_m, b) => `: ${b === 'true' ? rng.pick(['yes', 'on', 'Y']) : rng.pick(['no', 'off', 'N'])}`).replace(/^(\s+replicas:) \d+$/m, '$1 0o17').replace(/^(\s+count:) \d+$/m, '$1 1:20')}`,
      };
    case 'bomAndCrlf':
      return { mutation: 'yaml:bomAndCrlf', text: `\uFEFF${rng.chance(0.5) ? text.replace(/\n/g, '\r\n') : text}` };
    case 'documentEnd':
      return { mutation: 'yaml:documentEnd', text: `${text}...\n${rng.chance(0.5) ? '# a comment\n' : ''}` };
    case 'mergeKey':
      return { mutation: 'yaml:mergeKey', text: text.replace(/^metadata:\n/m, 'base: &base {replicas: 2, constructor: 1}\nmetadata:\n').replace(/^spec:\n/m, 'spec:\n  <<: *base\n') };
    case 'truncated':
      return { mutation: 'yaml:truncated', text: text.slice(0, rng.int(0, text.length)) };
    case 'garbage':
      return { mutation: 'yaml:garbage', text: rng.pick(['{{{{', ']]', '- - - -\n  : :', '? complex\n: key\n', '"unterminated\n', '&anchor\n', '!!str\n', '%TAG ! tag:x,2000:\n---\n!foo x\n', '@reserved\n', '`backtick\n']) };
    case 'manyKeys': {
      const n = rng.pick([5000, 5001, 6000]);
      return { mutation: `yaml:manyKeys${n}`, text: text.replace(/^spec:\n/m, `spec:\n  many:\n${Array.from({ length: n }, (_, i) => `    k${i}: ${i}`).join('\n')}\n`) };
    }
    case 'longLine':
      return { mutation: 'yaml:longLine', text: text.replace(/^spec:\n/m, `spec:\n  long: ${'y'.repeat(rng.pick([100_000, 2_000_000]))}\n`) };
  }
}

/** The document as one flow collection (valid YAML if the text was; a JSON-like layout). */
function stringifyFlow(text: string): string {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { parse } = require('yaml') as typeof import('yaml');
    return stringify(parse(text, { uniqueKeys: false }), { collectionStyle: 'flow', lineWidth: 0 });
  } catch {
    return text;
  }
}

/** A 32-bit seed from the run's seed and an input's index (two rounds of a multiply-xorshift hash). */
function mix(seed: number, index: number): number {
  let h = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ index) >>> 0; // eslint-disable-line no-bitwise
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d); // eslint-disable-line no-bitwise
  return (h ^ (h >>> 15)) >>> 0; // eslint-disable-line no-bitwise
}

/**
 * Hostile input number `index` of the run with seed `seed` (the same pair gives the same bytes):
 * a corpus case, its documents mutated, then its YAML text.
 */
export function hostileInput(seed: number, index: number): HostileInput {
  // One stream per input, so that input `index` reproduces on its own.
  const rng = new Rng(mix(seed, index));
  const c = generateCase(rng, index);
  const raw = new RawTokens();
  const mutations: string[] = [];
  const docs: Json[] = [...c.docs, ...(c.providerDocs ?? [])];

  for (const doc of docs) {
    if (typeof doc !== 'object' || doc === null || doc.kind !== 'ModelDeployment' || !rng.chance(0.5)) continue;
    for (let n = rng.int(1, 2); n > 0; n--) {
      const name = rng.pick(Object.keys(MD_MUTATIONS));
      MD_MUTATIONS[name](rng, doc, raw);
      mutations.push(name);
    }
  }
  if (rng.chance(0.12)) {
    docs.splice(rng.int(0, docs.length), 0, hostileGateway(rng, raw));
    mutations.push('gateway');
  }
  if (rng.chance(0.06)) {
    docs.splice(rng.int(0, docs.length), 0, strangeDocument(rng, raw));
    mutations.push('strangeDocument');
  }

  const texts = docs.map((d) => (typeof d === 'string' ? d : stringify(d, { lineWidth: 0 })));
  if (rng.chance(0.25)) {
    const i = rng.int(0, texts.length - 1);
    const hostile = hostileYamlText(rng, texts[i]);
    texts[i] = hostile.text;
    mutations.push(hostile.mutation);
  }
  let text = texts.map((t) => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n');
  if (rng.chance(0.03)) {
    text = rng.chance(0.5) ? `---\n---\n${text}---\n` : `${text}---\n${'x: 1\n---\n'.repeat(rng.pick([10, 2001]))}`;
    mutations.push('yaml:emptyAndManyDocuments');
  }
  let bytes = raw.splice(text);
  if (rng.chance(0.02)) {
    // Bytes anywhere: NUL, invalid UTF-8, random binary.
    const noise = Buffer.from(Array.from({ length: rng.int(1, 64) }, () => rng.int(0, 255)));
    const at = rng.int(0, bytes.length);
    bytes = Buffer.concat([bytes.subarray(0, at), noise, bytes.subarray(at)]);
    mutations.push('bytes:noise');
  }
  const flags = [...(c.gateway ? ['--gateway', c.gateway] : []), ...(c.poolVersion ? ['--inference-pool-api-version', c.poolVersion] : [])];
  return { bytes, flags, mutations };
}
