/**
 * Generates `schemas/modeldeployment.schema.json`: a JSON Schema of the YAML documents
 * `cdk8s-inference synth -f FILE` reads, for editors (yaml-language-server, the Red Hat YAML
 * extension of VS Code) to complete and check as the YAML is typed.
 *
 * - ModelDeployment and InferenceProviderConfig (`airunway.ai/v1alpha1`): the AI Runway CRDs'
 *   `openAPIV3Schema`, read from ../shared/upstream at generation time only (the output is
 *   self-contained and ships in the package), field descriptions included.
 * - Our annotations (`inference.cdk8s.io/*`): documented properties of `metadata.annotations`.
 * - NodePool (`inference.cdk8s.io/v1alpha1`, src/dra/node-inventory.ts) and Gateway
 *   (`gateway.networking.k8s.io/v1`, passed through unchecked), the other documents the CLI takes.
 *
 * Draft-07, because it is the draft yaml-language-server implements fully (vscode-yaml documents
 * "JSON Schema Draft 7"; 2019-09/2020-12 support is not released). The document chosen by `kind`
 * is an `if`/`then` per kind rather than a `oneOf`: with `oneOf` an editor reports "matches no
 * schema" for a typo, with `if`/`then` it reports the typo at its field.
 *
 * Run with `npx projen editor-schema`. The output depends only on the CRD files and the constants
 * imported from src/: no clock, network or environment. test/editor-schema.test.ts fails when the
 * committed file differs from what this script would write.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { AUTOSCALING_ANNOTATION } from '../src/api/autoscaling/autoscaling-annotation';
import { EndpointPicker, ENDPOINT_PICKER_ANNOTATION } from '../src/api/gateway/endpoint-picker-choice';
import { LORA_ANNOTATION } from '../src/api/lora/lora-annotation';
import { MAX_GPUS_PER_NODE, MULTI_NODE_ANNOTATION } from '../src/api/multi-node/multi-node-annotation';
import { POD_SECURITY_ANNOTATION, PodSecurityLevel } from '../src/api/pod-security-level';
import { EXPLICIT_SELECTION_ONLY_ANNOTATION } from '../src/api/provider/provider-config-entry';
import { ANNOTATION_UPSTREAM_FIELDS } from '../src/controller-contract/upstream-fields';
import { TOLERATE_GPU_TAINT_ANNOTATION, TOLERATE_GPU_TAINT_VALUES } from '../src/core/gpu-taint-toleration';
import { ANNOTATION_ENGINE_REASON, ANNOTATION_PROVIDER_REASON, LABEL_RENDERED_BY } from '../src/core/labels';
import { ALLOW_MOVING_IMAGE_TAG_ANNOTATION } from '../src/core/moving-image-tag';
import { ANNOTATION_RENDERED_OBJECTS } from '../src/core/rendered-objects';
import { NODE_POOL_API_VERSION, NODE_POOL_KIND } from '../src/dra/node-inventory';
import { CACHE_STRATEGIES, MAX_GPU_PRIORITY, MAX_SERVICE_LABELS } from '../src/flexinfer/model-spec-json';
import { DEVICES_ANNOTATION } from '../src/provider-kit/device-annotation';
import { DYNAMO_API_VERSION_ANNOTATION, DYNAMO_API_VERSIONS } from '../src/providers/dynamo/validation';
import * as flexinfer from '../src/providers/flexinfer/annotations';

type Json = null | boolean | number | string | Json[] | JsonObject;
interface JsonObject {
  [key: string]: Json;
}

const ROOT = path.resolve(__dirname, '..');
/** Where the schema is written: shipped in the npm package (.npmignore does not exclude it). */
export const EDITOR_SCHEMA_FILE = path.join(ROOT, 'schemas', 'modeldeployment.schema.json');
const DEFAULT_UPSTREAM = path.resolve(ROOT, '..', 'shared', 'upstream');
const README = 'https://github.com/maintainers/cdk8s-inference#';
const AIRUNWAY_API_VERSION = 'airunway.ai/v1alpha1';
const GATEWAY_API_VERSION = 'gateway.networking.k8s.io/v1';

const INT32 = { minimum: -2147483648, maximum: 2147483647 };

// ---------------------------------------------------------------------------------------------
// CRD structural schema -> editor JSON Schema
// ---------------------------------------------------------------------------------------------

/** Keywords of a CRD schema copied as they are. */
const COPIED = ['description', 'default', 'enum', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems', 'required'];
/**
 * Keywords read or deliberately dropped. `x-kubernetes-list-map-keys` (items unique by key) and
 * `x-kubernetes-map-type` (how server-side apply merges) have no draft-07 equivalent and change
 * nothing an editor can check.
 */
const HANDLED = new Set([
  ...COPIED, 'type', 'format', 'properties', 'items', 'additionalProperties', 'anyOf', 'nullable',
  'x-kubernetes-int-or-string', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
]);

/**
 * One CRD schema node as the CLI checks it (src/schema-validation/structural-schema.ts): unknown fields
 * are errors, integer formats are ranges. A keyword this conversion does not know fails the
 * generation, so a new CRD never loses a check silently.
 */
export function convertCrdSchema(s: JsonObject, at: string): JsonObject {
  const unknown = Object.keys(s).filter((k) => !HANDLED.has(k));
  if (unknown.length > 0) throw new Error(`${at}: CRD schema keywords the editor schema does not convert: ${unknown.join(', ')}`);
  const out: JsonObject = {};
  for (const k of COPIED) if (s[k] !== undefined) out[k] = s[k];
  if (s['x-kubernetes-int-or-string'] === true) {
    // The CRD's `anyOf: [integer, string]` plus a pattern that only a string can break.
    delete out.pattern;
    out.oneOf = [{ type: 'integer' }, { type: 'string', ...(typeof s.pattern === 'string' && { pattern: s.pattern }) }];
  } else if (s.anyOf !== undefined) {
    throw new Error(`${at}: anyOf outside x-kubernetes-int-or-string`);
  } else if (typeof s.type === 'string') {
    out.type = s.nullable === true ? [s.type, 'null'] : s.type;
  }
  // Editors know few formats and no Kubernetes ones; int32 becomes its range (int64 exceeds
  // what a double holds exactly, and date-time is only in status).
  if (s.format === 'int32') {
    out.minimum = Math.max(INT32.minimum, typeof out.minimum === 'number' ? out.minimum : INT32.minimum);
    out.maximum = Math.min(INT32.maximum, typeof out.maximum === 'number' ? out.maximum : INT32.maximum);
  }
  if (s['x-kubernetes-list-type'] === 'set') out.uniqueItems = true;
  if (isObject(s.properties)) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, convertCrdSchema(asObject(v, `${at}.${k}`), `${at}.${k}`)]));
  }
  if (isObject(s.items)) out.items = convertCrdSchema(s.items, `${at}[]`);
  if (isObject(s.additionalProperties)) out.additionalProperties = convertCrdSchema(s.additionalProperties, `${at}.*`);
  else if (typeof s.additionalProperties === 'boolean') out.additionalProperties = s.additionalProperties;
  // The API server prunes unknown fields and the CLI refuses them; the editor flags them.
  if (s.type === 'object' && out.additionalProperties === undefined && s['x-kubernetes-preserve-unknown-fields'] !== true) {
    out.additionalProperties = false;
  }
  return out;
}

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asObject(v: Json | undefined, what: string): JsonObject {
  if (!isObject(v)) throw new Error(`${what}: expected an object`);
  return v;
}

/** The served storage version's openAPIV3Schema of a CRD file. */
function readCrdSchema(file: string, version: string): JsonObject {
  const crd = asObject(YAML.parse(fs.readFileSync(file, 'utf8')) as Json, file);
  const versions = asObject(crd.spec, `${file} spec`).versions as Json[];
  const v = versions.map((x) => asObject(x, file)).find((x) => x.name === version);
  if (!v) throw new Error(`${file}: no version ${version}`);
  return asObject(asObject(v.schema, file).openAPIV3Schema, file);
}

// ---------------------------------------------------------------------------------------------
// Our annotations and labels
// ---------------------------------------------------------------------------------------------

/** Why the editor cannot check inside an annotation whose value is YAML. */
const INNER_YAML_NOTE = 'An annotation value is a string, so the editor checks only that it is one; its inner YAML is checked by `cdk8s-inference synth`.';

function yamlAnnotation(summary: string, shape: string, section: string): JsonObject {
  return {
    type: 'string',
    description: `${summary}\n\nYAML (or JSON) in a block scalar (\`|\`):\n\n${shape}\n\n${INNER_YAML_NOTE}\nSee ${README}${section}`,
  };
}

const TRUE_FALSE = { type: 'string', enum: ['true', 'false'] };
/** What src/core/go-duration.ts parses, roughly: the editor hint, not the check. */
const GO_DURATION = { type: 'string', pattern: '^\\s*([0-9]+(\\.[0-9]*)?(ns|us|µs|ms|s|m|h))+\\s*$' };
const WHOLE_NUMBER = { type: 'string', pattern: '^\\s*[0-9]+\\s*$' };

/** `metadata.annotations` of a ModelDeployment that cdk8s-inference reads or writes. */
function modelDeploymentAnnotations(): JsonObject {
  const f = flexinfer;
  const flexinferDoc = (text: string, schema: JsonObject): JsonObject => ({
    ...schema,
    description: `FlexInfer provider (\`spec.provider.name: flexinfer\`): ${text} See ${README}examples`,
  });
  return {
    [DEVICES_ANNOTATION]: yamlAnnotation(
      'GPUs claimed through DRA (resource.k8s.io/v1): device requests under `resources`, or `prefill` and `decode` in disaggregated mode.',
      'resources:\n  - name: gpu\n    deviceClassName: gpu.nvidia.com\n    count: 2\n    selectors:\n      - memoryAtLeast: 40Gi\n      - attribute: gpu.nvidia.com/architecture\n        equals: Hopper',
      'gpus-through-dra-resourcek8siov1'),
    [AUTOSCALING_ANNOTATION]: yamlAnnotation(
      'Autoscaling on LLM metrics (queueDepth, kvCacheUsage, requestRate, inFlightRequests, prometheus), by KEDA or an HPA, or the target\'s own autoscaler; `minReplicas: 0` scales to zero.',
      'maxReplicas: 4\nminReplicas: 1\nautoscaler: keda   # or hpa\ncooldownSeconds: 600\nmetrics:\n  - {type: queueDepth, target: 4}\n  - {type: kvCacheUsage, target: 85}',
      'autoscaling-on-llm-metrics-and-scale-to-zero'),
    [MULTI_NODE_ANNOTATION]: yamlAnnotation(
      `Multi-node replicas: each replica runs on \`gpu.count / gpusPerNode\` pods of \`gpusPerNode\` GPUs (1 to ${MAX_GPUS_PER_NODE}), one engine over all of them.`,
      'gpusPerNode: 8',
      'multi-node-replicas'),
    [LORA_ANNOTATION]: yamlAnnotation(
      'LoRA adapters served beside the base model, each under its own model name (vLLM).',
      'adapters:\n  - name: sql\n    source: hf://acme-ml/qwen3-8b-sql-lora@v1.2   # hf://<org>/<repo>[@<revision>]\n  - name: support\n    source: pvc://lora-adapters/support      # pvc://<claim>[/<path>]\nmaxRank: 32   # optional\nmaxLoras: 2   # optional',
      'lora-adapters'),
    [TOLERATE_GPU_TAINT_ANNOTATION]: {
      type: 'string',
      enum: [...TOLERATE_GPU_TAINT_VALUES],
      description: '"true": every pod that requests GPUs tolerates the GPU vendor\'s node taint (`nvidia.com/gpu` or `amd.com/gpu`, NoSchedule).',
    },
    [ALLOW_MOVING_IMAGE_TAG_ANNOTATION]: {
      type: 'string',
      enum: ['true', 'false'],
      description: '"true": this deployment means to follow a moving image tag (latest, nightly, no tag, ...), e.g. in development; no warning says to pin it.',
    },
    [POD_SECURITY_ANNOTATION]: {
      type: 'string',
      enum: Object.values(PodSecurityLevel),
      description: 'The Pod Security Standard the model-server pods are set up for: baseline (the default) or restricted (non-root; see the README\'s "Pod security" for each engine).',
    },
    [ENDPOINT_PICKER_ANNOTATION]: {
      type: 'string',
      enum: Object.values(EndpointPicker),
      description: 'The endpoint picker of the controller-managed InferencePool: llmd-router (the llm-d Router\'s, the default) or gaie-v1.5 (GAIE v1.5\'s picker, and llm-d inference scheduler 0.6.0 for llm-d), over the registry\'s choice.',
    },
    [DYNAMO_API_VERSION_ANNOTATION]: {
      type: 'string',
      enum: [...DYNAMO_API_VERSIONS],
      description: 'Dynamo provider: the DynamoGraphDeployment version synthesized for this deployment, over the provider\'s setting.',
    },
    [f.GPU_SHARED_ANNOTATION]: flexinferDoc('the shared GPU group this model time-shares a GPU with (a label value).', { type: 'string', maxLength: 63 }),
    [f.GPU_PRIORITY_ANNOTATION]: flexinferDoc(`priority within the shared GPU group, 0 to ${MAX_GPU_PRIORITY}.`, WHOLE_NUMBER),
    [f.GPU_SWAP_COOLDOWN_ANNOTATION]: flexinferDoc('swap cooldown of the shared GPU group, a Go duration ("90s", "5m").', GO_DURATION),
    [f.VRAM_ESTIMATE_ANNOTATION]: flexinferDoc('estimated VRAM in MB, for bin-packing.', WHOLE_NUMBER),
    [f.SCALE_TO_ZERO_ANNOTATION]: flexinferDoc('"true": scale to zero when idle.', TRUE_FALSE),
    [f.IDLE_TIMEOUT_ANNOTATION]: flexinferDoc('idle time before scaling to zero, a Go duration; with scale-to-zero.', GO_DURATION),
    [f.COLD_START_TIMEOUT_ANNOTATION]: flexinferDoc('cold-start timeout, a Go duration; with scale-to-zero.', GO_DURATION),
    [f.CACHE_STRATEGY_ANNOTATION]: flexinferDoc('model cache strategy.', { type: 'string', enum: [...CACHE_STRATEGIES] }),
    [f.CACHE_HOST_PATH_ANNOTATION]: flexinferDoc('absolute host path of the Local cache strategy.', { type: 'string', pattern: '^/' }),
    [f.LITELLM_ANNOTATION]: flexinferDoc('"true": LiteLLM discovery annotations on the Model\'s Service.', TRUE_FALSE),
    [f.LITELLM_ALIASES_ANNOTATION]: flexinferDoc('LiteLLM aliases, comma-separated; with LiteLLM discovery.', { type: 'string' }),
    [f.LITELLM_COPILOT_ALIAS_ANNOTATION]: flexinferDoc('LiteLLM Copilot alias; with LiteLLM discovery.', { type: 'string' }),
    [f.SERVICE_LABELS_ANNOTATION]: flexinferDoc(`service labels, comma-separated (at most ${MAX_SERVICE_LABELS}).`, { type: 'string' }),
    [ANNOTATION_RENDERED_OBJECTS]: { type: 'string', description: 'Written by cdk8s-inference on the ModelDeployment record it synthesizes: the objects rendered for it (JSON), which the controller watches.' },
    [ANNOTATION_UPSTREAM_FIELDS]: {
      type: 'string',
      description: 'Written by cdk8s-inference on the ModelDeployment record it synthesizes: the API versions and fields its custom resources set (JSON), ' +
        'which the controller checks against the installed CRDs (IncompatibleUpstream).',
    },
    [ANNOTATION_ENGINE_REASON]: { type: 'string', description: 'Written by cdk8s-inference on the record it synthesizes: why the engine was selected.' },
    [ANNOTATION_PROVIDER_REASON]: { type: 'string', description: 'Written by cdk8s-inference on the record it synthesizes: why the provider was selected.' },
  };
}

/**
 * The FlexInfer provider refuses an annotation with its prefix that it does not know (a typo):
 * flag the same in the editor. The lookahead keeps the known names out of the pattern.
 */
function unknownFlexInferAnnotations(): JsonObject {
  const known = flexinfer.FLEXINFER_ANNOTATIONS.map((k) => escapeRegExp(k.slice(flexinfer.FLEXINFER_ANNOTATION_PREFIX.length))).join('|');
  return {
    [`^${escapeRegExp(flexinfer.FLEXINFER_ANNOTATION_PREFIX)}(?!(${known})$)`]: {
      not: {},
      description: `Not a FlexInfer annotation; known: ${flexinfer.FLEXINFER_ANNOTATIONS.join(', ')}`,
    },
  };
}

/** `s` as a literal in a pattern; only syntax characters, since editors and Ajv compile with the `u` flag, where escaping `-` is an error. */
function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

interface MetadataOptions {
  readonly namespaced: boolean;
  readonly annotations?: JsonObject;
  readonly patternAnnotations?: JsonObject;
  readonly labels?: JsonObject;
}

/**
 * `metadata` as the CLI reads it (src/core/manifest-metadata.ts): a name, string labels and
 * annotations. Other ObjectMeta fields (uid, resourceVersion ... of `kubectl get -o yaml`) are
 * ignored by the CLI, so they are allowed here.
 */
function metadata(o: MetadataOptions): JsonObject {
  return {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, description: 'Name of the object.' },
      namespace: o.namespaced
        ? { type: 'string', description: 'Namespace of the object and of everything synthesized for it.' }
        : { not: {}, description: 'Cluster-scoped: no namespace.' },
      labels: { type: 'object', additionalProperties: { type: 'string' }, ...(o.labels && { properties: o.labels }) },
      annotations: {
        type: 'object',
        additionalProperties: { type: 'string' },
        ...(o.annotations && { properties: o.annotations }),
        ...(o.patternAnnotations && { patternProperties: o.patternAnnotations }),
      },
    },
  };
}

/** A document of one CRD: apiVersion and kind fixed, metadata as the CLI reads it. */
function crdDocument(crdFile: string, apiVersion: string, kind: string, meta: JsonObject, requireSpec: boolean): JsonObject {
  const root = convertCrdSchema(readCrdSchema(crdFile, apiVersion.split('/')[1]), kind);
  const props = asObject(root.properties, kind);
  return {
    ...root,
    required: ['apiVersion', 'kind', 'metadata', ...(requireSpec ? ['spec'] : [])],
    properties: {
      ...props,
      apiVersion: { ...asObject(props.apiVersion, kind), const: apiVersion },
      kind: { ...asObject(props.kind, kind), const: kind },
      metadata: meta,
    },
    additionalProperties: false,
  };
}

/** A NodePool document (src/dra/node-inventory.ts, `NodePoolSpec`). */
function nodePoolDocument(): JsonObject {
  const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
  return {
    type: 'object',
    description: 'A node pool of the cluster, for the capacity check of `cdk8s-inference synth` (read at build time, never written). See ' + README + 'capacity-checked-against-a-declared-inventory',
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    additionalProperties: false,
    properties: {
      apiVersion: { const: NODE_POOL_API_VERSION },
      kind: { const: NODE_POOL_KIND },
      metadata: metadata({ namespaced: true }),
      spec: {
        type: 'object',
        required: ['nodes'],
        additionalProperties: false,
        properties: {
          nodes: { type: 'integer', minimum: 0, description: 'Nodes in the pool (its maximum when it autoscales).' },
          labels: { ...stringMap, description: 'Labels every node carries; matched against a deployment\'s `spec.nodeSelector`.' },
          extendedResources: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 }, description: 'Extended resources of one node, e.g. `nvidia.com/gpu: 8`.' },
          devices: {
            type: 'array',
            description: 'DRA devices on each node, described as a ResourceSlice lists them.',
            items: {
              type: 'object',
              required: ['driver'],
              additionalProperties: false,
              properties: {
                driver: { type: 'string', description: 'The DRA driver that publishes the devices, e.g. `gpu.nvidia.com`; the domain of bare attribute names.' },
                deviceClassName: { type: 'string', description: 'The DeviceClass they are claimed under; unset: any class.' },
                count: { type: 'integer', minimum: 1, default: 1, description: 'Devices per node.' },
                attributes: {
                  type: 'object',
                  description: 'Device attributes: a string, an integer, a boolean or `{version: "<semver>"}`.',
                  additionalProperties: {
                    oneOf: [
                      { type: 'string' }, { type: 'integer' }, { type: 'boolean' },
                      { type: 'object', required: ['version'], additionalProperties: false, properties: { version: { type: 'string' } } },
                    ],
                  },
                },
                capacity: {
                  type: 'object',
                  description: 'Device capacities as Kubernetes quantities, e.g. `memory: 80Gi`.',
                  additionalProperties: { oneOf: [{ type: 'number' }, { type: 'string' }] },
                },
              },
            },
          },
        },
      },
    },
  };
}

/** The whole schema, from the CRDs under `upstream` (../shared/upstream by default). */
export function buildEditorSchema(upstream: string = DEFAULT_UPSTREAM): JsonObject {
  const crd = (name: string) => path.join(upstream, 'airunway', name);
  const documents: Array<[string, string, JsonObject]> = [
    [AIRUNWAY_API_VERSION, 'ModelDeployment', crdDocument(crd('airunway.ai_modeldeployments.yaml'), AIRUNWAY_API_VERSION, 'ModelDeployment', metadata({
      namespaced: true,
      annotations: modelDeploymentAnnotations(),
      patternAnnotations: unknownFlexInferAnnotations(),
      labels: { [LABEL_RENDERED_BY]: { type: 'string', description: 'Set to `cdk8s-inference` on the records cdk8s-inference synthesizes; the controller reconciles only those.' } },
    }), true)],
    [AIRUNWAY_API_VERSION, 'InferenceProviderConfig', crdDocument(crd('airunway.ai_inferenceproviderconfigs.yaml'), AIRUNWAY_API_VERSION, 'InferenceProviderConfig', metadata({
      namespaced: false,
      annotations: {
        [EXPLICIT_SELECTION_ONLY_ANNOTATION]: { ...TRUE_FALSE, description: '"true": the provider is selected only when a deployment names it in `spec.provider.name`, never automatically.' },
      },
    }), false)],
    [NODE_POOL_API_VERSION, NODE_POOL_KIND, nodePoolDocument()],
    [GATEWAY_API_VERSION, 'Gateway', {
      type: 'object',
      description: 'A Gateway API Gateway, passed through to the output (not checked here); the one named by `--gateway` admits the routes\' namespaces.',
      required: ['apiVersion', 'kind', 'metadata'],
      properties: { apiVersion: { const: GATEWAY_API_VERSION }, kind: { const: 'Gateway' } },
    }],
  ];
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'cdk8s-inference input',
    description: 'A document of `cdk8s-inference synth -f FILE`: an AI Runway ModelDeployment or InferenceProviderConfig, a NodePool or a Gateway. Generated by scripts/editor-schema.ts; do not edit.',
    type: 'object',
    required: ['apiVersion', 'kind'],
    properties: {
      apiVersion: { type: 'string', enum: [...new Set(documents.map(([v]) => v))] },
      kind: { type: 'string', enum: documents.map(([, k]) => k) },
    },
    allOf: documents.map(([, kind]) => ({
      if: { properties: { kind: { const: kind } }, required: ['kind'] },
      then: { $ref: `#/definitions/${kind}` },
    })),
    definitions: Object.fromEntries(documents.map(([, kind, schema]) => [kind, schema])),
  };
}

/** The file's text: stable key order as built, two-space indent, final newline. */
export function renderEditorSchema(upstream?: string): string {
  return JSON.stringify(buildEditorSchema(upstream), null, 2) + '\n';
}

if (require.main === module) {
  fs.mkdirSync(path.dirname(EDITOR_SCHEMA_FILE), { recursive: true });
  fs.writeFileSync(EDITOR_SCHEMA_FILE, renderEditorSchema());
  console.log(`wrote ${path.relative(ROOT, EDITOR_SCHEMA_FILE)}`);
}
