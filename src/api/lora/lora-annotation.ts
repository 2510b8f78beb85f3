/**
 * The LoRA adapters of a deployment. AI Runway's ModelDeployment has no field for them, so they
 * are the annotation `inference.cdk8s.io/lora`, whose value is YAML (or JSON):
 *
 * ```yaml
 * metadata:
 *   annotations:
 *     inference.cdk8s.io/lora: |
 *       adapters:
 *         - name: sql                       # the model name clients send for this adapter
 *           source: hf://org/sql-lora@main  # or pvc://<claim>/<dir>
 *       maxRank: 64                         # optional: vLLM --max-lora-rank
 *       maxLoras: 1                         # optional: vLLM --max-loras (default: one per adapter)
 * ```
 *
 * The typed construct writes the same annotation from `ModelDeploymentProps.lora`. This module
 * only reads the value; what it means for the engine, the pods and the routes is in the modules
 * beside it.
 */
import { parseAdapterSource, ParsedAdapterSource, SOURCE_FORMS } from './adapter-source';
import { Annotations, cachedAnnotationReader, parseAnnotationMapping } from '../../core/annotation-yaml';
import { FieldError, fieldPath, invalid, notSupported, required } from '../../core/field-error';

/** ModelDeployment annotation holding the LoRA adapters. */
export const LORA_ANNOTATION = 'inference.cdk8s.io/lora';

/** Field path of the annotation, in messages. */
export const LORA_ANNOTATION_PATH = `metadata.annotations[${JSON.stringify(LORA_ANNOTATION)}]`;

/**
 * Most adapters per deployment. Each becomes a `--lora-modules` entry, a route match and, from
 * Hugging Face, an init container; beyond a few dozen, pod start-up and route size suffer, and a
 * deployment that needs more wants adapters loaded at run time instead.
 */
export const MAX_LORA_ADAPTERS = 32;

/**
 * `--max-lora-rank` values vLLM accepts. vLLM 0.9 (llm-d's default image) through 0.11 allow
 * these; later versions add 1, which is left out so one value works on every image we ship.
 */
export const VLLM_LORA_RANKS: readonly number[] = [8, 16, 32, 64, 128, 256, 320, 512];

/**
 * Adapter names: what clients send as `model`, an engine's adapter key, a directory under
 * `/lora-adapters` and a route's header value at once. Letters, digits, `-`, `_` and `.`, starting
 * with a letter or digit, at most 63 characters: no `=` (vLLM's `name=path`), `:` (SGLang's
 * `base:adapter`) or `/` (a path), and short enough to read in a route.
 */
const ADAPTER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Larger values are refused before parsing: 32 adapters fit in a few kilobytes. */
export const MAX_LORA_ANNOTATION_BYTES = 64 * 1024;

const TOP_LEVEL_KEYS = ['adapters', 'maxRank', 'maxLoras'];
const ADAPTER_KEYS = ['name', 'source'];

/** One adapter, checked. */
export interface LoraAdapterSetting {
  readonly name: string;
  readonly source: ParsedAdapterSource;
}

/** The annotation, checked. */
export interface LoraSettings {
  readonly adapters: readonly LoraAdapterSetting[];
  /** `--max-lora-rank`; undefined leaves the engine's default. */
  readonly maxRank?: number;
  /** `--max-loras`: adapters in one batch; the number of adapters unless set. */
  readonly maxLoras: number;
}

/** Field path of a part of the annotation, e.g. `lora('adapters', 0, 'name')`. */
export function loraPath(...segments: Array<string | number>): string {
  return segments.length === 0 ? LORA_ANNOTATION_PATH : `${LORA_ANNOTATION_PATH}.${fieldPath(...segments)}`;
}

type Read = { settings?: LoraSettings; errors: FieldError[] };

/** The adapters of a deployment, or the problems of its annotation; no annotation: neither. */
export const readLoraAnnotation: (annotations: Annotations) => Read = cachedAnnotationReader(LORA_ANNOTATION, parseLora, { errors: [] });

/** The checked adapters of a deployment; undefined when it asks for none or the annotation is invalid. */
export function loraSettingsOf(annotations: Annotations): LoraSettings | undefined {
  return readLoraAnnotation(annotations).settings;
}

/** The adapter names of a deployment (the extra model names it serves), in annotation order. */
export function loraAdapterNames(annotations: Annotations): string[] {
  return (loraSettingsOf(annotations)?.adapters ?? []).map((a) => a.name);
}

function parseLora(value: string): Read {
  const parsed = parseAnnotationMapping(value, LORA_ANNOTATION_PATH, MAX_LORA_ANNOTATION_BYTES,
    'a mapping with a list of adapters under "adapters" (each with name and source), and optionally maxRank and maxLoras');
  const fields = parsed.doc;
  if (!fields) return { errors: parsed.errors };
  const errors: FieldError[] = [];
  for (const key of Object.keys(fields)) {
    if (!TOP_LEVEL_KEYS.includes(key)) errors.push(notSupported(loraPath(key), key, TOP_LEVEL_KEYS));
  }
  const adapters = readAdapters(fields.adapters, errors);
  const maxRank = readMaxRank(fields.maxRank, errors);
  // Counted from the list as written, so a bad adapter does not also make maxLoras look too large.
  const listed = Array.isArray(fields.adapters) ? fields.adapters.length : 0;
  const maxLoras = readMaxLoras(fields.maxLoras, listed, errors);
  if (errors.length > 0) return { errors };
  return { settings: { adapters, ...(maxRank !== undefined && { maxRank }), maxLoras: maxLoras ?? adapters.length }, errors };
}

function readAdapters(list: unknown, errors: FieldError[]): LoraAdapterSetting[] {
  if (list === undefined || list === null) {
    errors.push(required(loraPath('adapters'), 'list at least one adapter (name and source), or remove the annotation'));
    return [];
  }
  if (!Array.isArray(list)) {
    errors.push(invalid(loraPath('adapters'), list, 'must be a list of adapters, each a mapping with name and source'));
    return [];
  }
  if (list.length === 0) {
    errors.push(required(loraPath('adapters'), 'list at least one adapter (name and source), or remove the annotation'));
    return [];
  }
  if (list.length > MAX_LORA_ADAPTERS) {
    errors.push(invalid(loraPath('adapters'), `${list.length} adapters`, `at most ${MAX_LORA_ADAPTERS} adapters per deployment`));
    return [];
  }
  const out: LoraAdapterSetting[] = [];
  const firstIndexOf = new Map<string, number>();
  list.forEach((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      errors.push(invalid(loraPath('adapters', i), entry, 'must be a mapping with name and source'));
      return;
    }
    const adapter = entry as Record<string, unknown>;
    for (const key of Object.keys(adapter)) {
      if (!ADAPTER_KEYS.includes(key)) errors.push(notSupported(loraPath('adapters', i, key), key, ADAPTER_KEYS));
    }
    const name = readName(adapter.name, i, errors);
    if (name !== undefined) {
      const first = firstIndexOf.get(name);
      if (first !== undefined) {
        errors.push(invalid(loraPath('adapters', i, 'name'), name, `is also the name of adapters[${first}]; each adapter needs its own model name`));
      } else {
        firstIndexOf.set(name, i);
      }
    }
    const source = readSource(adapter.source, i, errors);
    if (name !== undefined && source !== undefined) out.push({ name, source });
  });
  return out;
}

function readName(name: unknown, i: number, errors: FieldError[]): string | undefined {
  const at = loraPath('adapters', i, 'name');
  if (name === undefined || name === null || name === '') {
    errors.push(required(at, 'the model name clients send to use the adapter'));
    return undefined;
  }
  if (typeof name !== 'string' || !ADAPTER_NAME.test(name)) {
    errors.push(invalid(at, name, 'must be 1 to 63 letters, digits, "-", "_" and ".", starting with a letter or digit'));
    return undefined;
  }
  return name;
}

function readSource(source: unknown, i: number, errors: FieldError[]): ParsedAdapterSource | undefined {
  const at = loraPath('adapters', i, 'source');
  if (source === undefined || source === null || source === '') {
    errors.push(required(at, `where the adapter's weights are: ${SOURCE_FORMS}`));
    return undefined;
  }
  if (typeof source !== 'string') {
    errors.push(invalid(at, source, `must be a string: ${SOURCE_FORMS}`));
    return undefined;
  }
  const parsed = parseAdapterSource(source);
  if (parsed.problem !== undefined) {
    errors.push(invalid(at, source, parsed.problem));
    return undefined;
  }
  return parsed.source;
}

function readMaxRank(value: unknown, errors: FieldError[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !VLLM_LORA_RANKS.includes(value)) {
    errors.push(notSupported(loraPath('maxRank'), value, VLLM_LORA_RANKS.map(String)));
    return undefined;
  }
  return value;
}

function readMaxLoras(value: unknown, adapterCount: number, errors: FieldError[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  // Past the adapter count, vLLM would reserve GPU memory for slots no adapter can fill.
  const most = Math.max(adapterCount, 1);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > most) {
    errors.push(invalid(loraPath('maxLoras'), value,
      `must be a whole number from 1 to the number of adapters (${most}): the adapters one batch can mix, each taking a slot of GPU memory`));
    return undefined;
  }
  return value;
}
