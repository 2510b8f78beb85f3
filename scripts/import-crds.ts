/**
 * Regenerates every artifact derived from the upstream CRDs in ../shared/upstream:
 *
 * 1. `src/imports/<group>.ts`: L1 bindings, one module per API group, made by the `cdk8s import`
 *    CLI from a pre-processed copy of the CRDs (selected versions only; embedded core Kubernetes
 *    types replaced by opaque objects, see `pruneCoreTypes`).
 * 2. `src/core/generated/{model-deployment,inference-provider-config}-spec.ts`: internal
 *    TypeScript types for the AI Runway `spec`/`status` schemas (json-schema-to-typescript).
 * 3. `src/core/generated/airunway-schemas.ts`: the AI Runway `spec` schemas without descriptions,
 *    used to validate YAML input at run time.
 *
 * Run with `npx projen import`. The output depends only on the input files and the tool versions
 * in package-lock.json: nothing here reads the clock, the network or the environment.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compile, Options as JsonToTsOptions } from 'json-schema-to-typescript';
import * as ts from 'typescript';
import * as YAML from 'yaml';

type Json = null | boolean | number | string | Json[] | JsonObject;
interface JsonObject {
  [key: string]: Json;
}
type CompileSchema = Parameters<typeof compile>[0];

const ROOT = path.resolve(__dirname, '..');
const UPSTREAM = path.resolve(__dirname, '..', '..', 'shared', 'upstream');
const IMPORTS_DIR = path.join(ROOT, 'src', 'imports');
const GENERATED_DIR = path.join(ROOT, 'src', 'core', 'generated');
const SCRIPT = 'scripts/import-crds.ts';

// ---------------------------------------------------------------------------------------------
// What to import
// ---------------------------------------------------------------------------------------------

interface CrdSource {
  /** Path under ../shared/upstream. */
  readonly file: string;
  /** Versions to keep, in the order the CRD lists them (the first one gets the unsuffixed class). */
  readonly versions: string[];
}

interface ImportModule {
  /** API group: `cdk8s import` names the module file after it. */
  readonly group: string;
  /** Every CRD of the group that goes into the module (imported together, or they overwrite). */
  readonly sources: CrdSource[];
  /** Replace embedded core Kubernetes types with opaque objects (see `pruneCoreTypes`). */
  readonly prune: boolean;
}

const MODULES: ImportModule[] = [
  {
    group: 'airunway.ai',
    sources: [
      { file: 'airunway/airunway.ai_modeldeployments.yaml', versions: ['v1alpha1'] },
      { file: 'airunway/airunway.ai_inferenceproviderconfigs.yaml', versions: ['v1alpha1'] },
    ],
    // Our own record API: small, and its env/tolerations stay fully typed.
    prune: false,
  },
  {
    group: 'nvidia.com',
    sources: [{ file: 'dynamo/nvidia.com_dynamographdeployments.yaml', versions: ['v1alpha1', 'v1beta1'] }],
    prune: true,
  },
  {
    group: 'ray.io',
    sources: [{ file: 'kuberay/ray.io_rayservices.yaml', versions: ['v1'] }],
    prune: true,
  },
  {
    group: 'kaito.sh',
    sources: [{ file: 'kaito/kaito.sh_workspaces.yaml', versions: ['v1beta1'] }],
    prune: true,
  },
  {
    group: 'inference.networking.k8s.io',
    sources: [{ file: 'gateway-api-inference-extension/inference.networking.k8s.io_inferencepools.yaml', versions: ['v1'] }],
    prune: true,
  },
  {
    group: 'inference.networking.x-k8s.io',
    sources: [{ file: 'gateway-api-inference-extension/inference.networking.x-k8s.io_inferencepools.yaml', versions: ['v1alpha2'] }],
    prune: true,
  },
  {
    group: 'gateway.networking.k8s.io',
    sources: [
      { file: 'gateway-api/gateway.networking.k8s.io_httproutes.yaml', versions: ['v1'] },
      { file: 'gateway-api/gateway.networking.k8s.io_referencegrants.yaml', versions: ['v1', 'v1beta1'] },
      { file: 'gateway-api/gateway.networking.k8s.io_gateways.yaml', versions: ['v1'] },
    ],
    prune: true,
  },
  {
    group: 'leaderworkerset.x-k8s.io',
    sources: [{ file: 'lws/leaderworkerset.x-k8s.io_leaderworkersets.yaml', versions: ['v1'] }],
    prune: true,
  },
  {
    group: 'workload.serving.volcano.sh',
    sources: [
      { file: 'kthena/workload.serving.volcano.sh_modelservings.yaml', versions: ['v1alpha1'] },
      { file: 'kthena/workload.serving.volcano.sh_modelboosters.yaml', versions: ['v1alpha1'] },
      { file: 'kthena/workload.serving.volcano.sh_autoscalingpolicies.yaml', versions: ['v1alpha1'] },
    ],
    prune: true,
  },
  {
    group: 'networking.serving.volcano.sh',
    sources: [
      { file: 'kthena/networking.serving.volcano.sh_modelservers.yaml', versions: ['v1alpha1'] },
      { file: 'kthena/networking.serving.volcano.sh_modelroutes.yaml', versions: ['v1alpha1'] },
    ],
    prune: true,
  },
  {
    // Crossplane XRDs, imported as the CRDs Crossplane derives from them (see `xrdAsCrd`).
    group: 'modelplane.ai',
    sources: [
      { file: 'modelplane/apis/modeldeployments/definition.yaml', versions: ['v1alpha1'] },
      { file: 'modelplane/apis/modelcaches/definition.yaml', versions: ['v1alpha1'] },
    ],
    prune: true,
  },
  {
    group: 'keda.sh',
    sources: [{ file: 'keda/keda.sh_scaledobjects.yaml', versions: ['v1alpha1'] }],
    prune: true,
  },
  {
    group: 'monitoring.coreos.com',
    sources: [
      { file: 'prometheus-operator/monitoring.coreos.com_podmonitors.yaml', versions: ['v1'] },
      { file: 'prometheus-operator/monitoring.coreos.com_servicemonitors.yaml', versions: ['v1'] },
      { file: 'prometheus-operator/monitoring.coreos.com_prometheusrules.yaml', versions: ['v1'] },
    ],
    prune: true,
  },
  {
    group: 'ai.flexinfer',
    sources: [{ file: 'flexinfer/ai.flexinfer_models.yaml', versions: ['v1alpha2'] }],
    prune: true,
  },
];

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: Json | undefined, what: string): JsonObject {
  if (!isObject(value)) {
    throw new Error(`${what}: expected an object`);
  }
  return value;
}

function readYamlDocuments(file: string): JsonObject[] {
  const text = fs.readFileSync(file, 'utf8');
  return YAML.parseAllDocuments(text)
    .map((doc) => doc.toJS({ maxAliasCount: -1 }) as Json)
    .filter(isObject);
}

function readCrd(file: string): JsonObject {
  const crds = readYamlDocuments(path.join(UPSTREAM, file))
    .filter((d) => d.kind === 'CustomResourceDefinition' || d.kind === 'CompositeResourceDefinition');
  if (crds.length !== 1) {
    throw new Error(`${file}: expected exactly one CustomResourceDefinition or CompositeResourceDefinition, found ${crds.length}`);
  }
  return crds[0].kind === 'CompositeResourceDefinition' ? xrdAsCrd(crds[0], file) : crds[0];
}

/**
 * A Crossplane CompositeResourceDefinition as the CustomResourceDefinition Crossplane derives
 * from it for `cdk8s import`: its group, names, scope and versions (the referenceable version is
 * the storage one), schemas as written. The fields Crossplane adds to every composite resource
 * (`spec.crossplane`, its status conditions) are left out: users do not write them.
 */
function xrdAsCrd(xrd: JsonObject, file: string): JsonObject {
  const spec = asObject(xrd.spec, `${file} spec`);
  const versions = crdVersions(xrd, file).map((v) => ({
    name: v.name,
    served: v.served ?? true,
    storage: v.referenceable === true,
    schema: v.schema ?? null,
  }));
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: asObject(xrd.metadata, `${file} metadata`).name ?? null },
    spec: { group: spec.group ?? null, names: spec.names ?? null, scope: spec.scope ?? 'Namespaced', versions },
  };
}

function crdVersions(crd: JsonObject, what: string): JsonObject[] {
  const versions = asObject(crd.spec, `${what} spec`).versions;
  if (!Array.isArray(versions)) {
    throw new Error(`${what}: spec.versions is not a list`);
  }
  return versions.map((v, i) => asObject(v, `${what} spec.versions[${i}]`));
}

function openApiSchema(version: JsonObject, what: string): JsonObject {
  const schema = asObject(version.schema, `${what} schema`);
  return asObject(schema.openAPIV3Schema, `${what} schema.openAPIV3Schema`);
}

function kiB(bytes: number): string {
  return `${(bytes / 1024).toFixed(0)} KiB`;
}

function writeIfChanged(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) {
    return;
  }
  fs.writeFileSync(file, content);
}

// ---------------------------------------------------------------------------------------------
// Pruning embedded core Kubernetes types
//
// Operator CRDs embed whole core/v1 schemas (a PodSpec alone is ~300 KB of schema in Dynamo and
// LWS). `cdk8s import` turns every copy into its own set of structs plus toJson functions, which
// gives 2-3 MB TypeScript files that are slow to jsii-compile and duplicate what cdk8s-plus-34's
// `k8s` module already types. We replace each such subschema with an opaque object that carries a
// note on how to build it with the `k8s` types.
//
// Detection is structural and checked against the Kubernetes OpenAPI documents in
// ../shared/upstream/kubernetes: a subschema is a core type when it has the type's distinguishing
// fields (`signature`) and most of its fields are fields of that type (`fits`). Fields the operator
// adds on top (Dynamo's `mainContainer` in a PodSpec) are listed in the note.
// ---------------------------------------------------------------------------------------------

interface CoreTypeRule {
  /** Kubernetes type name, e.g. `PodSpec`. */
  readonly name: string;
  /** Kubernetes API group/version, for the note. */
  readonly apiVersion: string;
  /** OpenAPI document (under upstream/kubernetes) and component name giving the field set. */
  readonly openApi: { readonly file: string; readonly component: string };
  /** How to build a value with cdk8s-plus-34 (used in the note). */
  readonly build: string;
  /** The fields that tell this type apart. */
  readonly signature: (props: JsonObject) => boolean;
}

const CORE_V1 = 'api__v1_openapi.json';
const AUTOSCALING_V2 = 'apis__autoscaling__v2_openapi.json';

function has(props: JsonObject, ...names: string[]): boolean {
  return names.every((n) => n in props);
}

function hasAny(props: JsonObject, ...names: string[]): boolean {
  return names.some((n) => n in props);
}

/** A `limits`/`requests` map of quantities, as in core/v1 ResourceRequirements. */
function isQuantityMap(schema: Json | undefined): boolean {
  if (!isObject(schema) || !isObject(schema.additionalProperties)) {
    return false;
  }
  return schema.additionalProperties['x-kubernetes-int-or-string'] === true;
}

function structFromJson(name: string): string {
  return `build it with cdk8s-plus-34's \`k8s.${name}\` and pass \`k8s.toJson_${name}(value)\``;
}

function objectFromManifest(kubeClass: string): string {
  return `build it with cdk8s-plus-34's \`k8s.${kubeClass}.manifest(props)\``;
}

/** Wrapper objects (`{ metadata, spec }` and full objects): matched through their `spec`. */
function wrapperOf(specType: string, allowed: string[]): (props: JsonObject) => boolean {
  return (props) =>
    'spec' in props &&
    Object.keys(props).every((k) => allowed.includes(k)) &&
    isObject(props.spec) &&
    classify(props.spec)?.rule.name === specType;
}

const OBJECT_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec', 'status'];

/** Checked in order; the first match wins and nothing below a match is visited. */
const CORE_TYPE_RULES: CoreTypeRule[] = [
  {
    name: 'PodTemplateSpec',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.PodTemplateSpec' },
    build: structFromJson('PodTemplateSpec'),
    signature: wrapperOf('PodSpec', ['metadata', 'spec']),
  },
  {
    name: 'PersistentVolumeClaim',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.PersistentVolumeClaim' },
    build: objectFromManifest('KubePersistentVolumeClaim'),
    signature: wrapperOf('PersistentVolumeClaimSpec', OBJECT_FIELDS),
  },
  {
    name: 'Service',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.Service' },
    build: objectFromManifest('KubeService'),
    signature: wrapperOf('ServiceSpec', OBJECT_FIELDS),
  },
  {
    name: 'PodSpec',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.PodSpec' },
    build: structFromJson('PodSpec'),
    signature: (p) => has(p, 'containers'),
  },
  {
    name: 'EphemeralContainer',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.EphemeralContainer' },
    build: structFromJson('EphemeralContainer'),
    signature: (p) => has(p, 'name', 'image', 'targetContainerName') && hasAny(p, 'livenessProbe', 'volumeMounts'),
  },
  {
    name: 'Container',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.Container' },
    build: structFromJson('Container'),
    signature: (p) => has(p, 'name', 'image') && hasAny(p, 'livenessProbe', 'volumeMounts'),
  },
  {
    name: 'Affinity',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.Affinity' },
    build: structFromJson('Affinity'),
    signature: (p) => hasAny(p, 'nodeAffinity', 'podAffinity', 'podAntiAffinity'),
  },
  {
    name: 'Volume',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.Volume' },
    build: structFromJson('Volume'),
    signature: (p) => has(p, 'name', 'persistentVolumeClaim', 'emptyDir'),
  },
  {
    name: 'Probe',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.Probe' },
    build: structFromJson('Probe'),
    signature: (p) =>
      hasAny(p, 'exec', 'httpGet', 'tcpSocket', 'grpc') &&
      hasAny(p, 'periodSeconds', 'initialDelaySeconds', 'failureThreshold', 'timeoutSeconds'),
  },
  {
    name: 'Lifecycle',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.Lifecycle' },
    build: structFromJson('Lifecycle'),
    signature: (p) => hasAny(p, 'postStart', 'preStop'),
  },
  {
    name: 'ResourceRequirements',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.ResourceRequirements' },
    build: structFromJson('ResourceRequirements'),
    // Operators have look-alikes with typed `cpu`/`gpu` fields (Dynamo): only quantity maps match.
    signature: (p) =>
      hasAny(p, 'limits', 'requests') &&
      (!('limits' in p) || isQuantityMap(p.limits)) &&
      (!('requests' in p) || isQuantityMap(p.requests)),
  },
  {
    name: 'SecurityContext',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.SecurityContext' },
    build: structFromJson('SecurityContext'),
    signature: (p) => hasAny(p, 'capabilities', 'allowPrivilegeEscalation', 'privileged', 'readOnlyRootFilesystem'),
  },
  {
    name: 'PodSecurityContext',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.PodSecurityContext' },
    build: structFromJson('PodSecurityContext'),
    signature: (p) => hasAny(p, 'fsGroup', 'supplementalGroups', 'sysctls', 'fsGroupChangePolicy'),
  },
  {
    name: 'TopologySpreadConstraint',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.TopologySpreadConstraint' },
    build: structFromJson('TopologySpreadConstraint'),
    signature: (p) => has(p, 'maxSkew', 'topologyKey', 'whenUnsatisfiable'),
  },
  {
    name: 'PersistentVolumeClaimSpec',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.PersistentVolumeClaimSpec' },
    build: structFromJson('PersistentVolumeClaimSpec'),
    signature: (p) => has(p, 'accessModes') && hasAny(p, 'dataSourceRef', 'volumeMode', 'storageClassName'),
  },
  {
    name: 'ServiceSpec',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.ServiceSpec' },
    build: structFromJson('ServiceSpec'),
    signature: (p) => has(p, 'ports') && hasAny(p, 'clusterIP', 'sessionAffinity', 'externalTrafficPolicy', 'ipFamilyPolicy'),
  },
  {
    name: 'EnvVar',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.EnvVar' },
    build: structFromJson('EnvVar'),
    signature: (p) =>
      has(p, 'name', 'valueFrom') && isObject(p.valueFrom) && isObject(p.valueFrom.properties) &&
      hasAny(p.valueFrom.properties, 'secretKeyRef', 'configMapKeyRef', 'fieldRef'),
  },
  {
    name: 'EnvFromSource',
    apiVersion: 'core/v1',
    openApi: { file: CORE_V1, component: 'io.k8s.api.core.v1.EnvFromSource' },
    build: structFromJson('EnvFromSource'),
    signature: (p) => hasAny(p, 'configMapRef', 'secretRef') && Object.keys(p).every((k) => ['configMapRef', 'secretRef', 'prefix'].includes(k)),
  },
  {
    name: 'HorizontalPodAutoscalerBehavior',
    apiVersion: 'autoscaling/v2',
    openApi: { file: AUTOSCALING_V2, component: 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior' },
    build: structFromJson('HorizontalPodAutoscalerBehaviorV2'),
    signature: (p) => hasAny(p, 'scaleUp', 'scaleDown') && Object.keys(p).every((k) => ['scaleUp', 'scaleDown'].includes(k)),
  },
  {
    name: 'MetricSpec',
    apiVersion: 'autoscaling/v2',
    openApi: { file: AUTOSCALING_V2, component: 'io.k8s.api.autoscaling.v2.MetricSpec' },
    build: structFromJson('MetricSpecV2'),
    signature: (p) => has(p, 'type') && hasAny(p, 'resource', 'pods', 'object', 'external', 'containerResource'),
  },
];

/** Share of a subschema's fields that must be fields of the Kubernetes type. */
const MIN_FIT = 0.75;

const coreFieldCache = new Map<string, Set<string>>();
const openApiCache = new Map<string, JsonObject>();

function coreFields(rule: CoreTypeRule): Set<string> {
  const key = `${rule.openApi.file}#${rule.openApi.component}`;
  const cached = coreFieldCache.get(key);
  if (cached) {
    return cached;
  }
  let doc = openApiCache.get(rule.openApi.file);
  if (!doc) {
    const file = path.join(UPSTREAM, 'kubernetes', rule.openApi.file);
    doc = asObject(JSON.parse(fs.readFileSync(file, 'utf8')) as Json, file);
    openApiCache.set(rule.openApi.file, doc);
  }
  const schemas = asObject(asObject(doc.components, 'components').schemas, 'components.schemas');
  const component = asObject(schemas[rule.openApi.component], rule.openApi.component);
  const fields = new Set(Object.keys(asObject(component.properties, `${rule.openApi.component}.properties`)));
  coreFieldCache.set(key, fields);
  return fields;
}

interface Classification {
  readonly rule: CoreTypeRule;
  /** Fields the operator added on top of the Kubernetes type. */
  readonly extras: string[];
}

function classify(schema: JsonObject): Classification | undefined {
  if (!isObject(schema.properties)) {
    return undefined;
  }
  const props = schema.properties;
  const names = Object.keys(props);
  for (const rule of CORE_TYPE_RULES) {
    if (!rule.signature(props)) {
      continue;
    }
    const fields = coreFields(rule);
    const extras = names.filter((n) => !fields.has(n));
    if (names.length - extras.length >= MIN_FIT * names.length) {
      return { rule, extras };
    }
  }
  return undefined;
}

function opaqueNote(c: Classification): string {
  const extras = c.extras.length > 0
    ? ` Besides the Kubernetes fields it accepts: ${c.extras.map((e) => `\`${e}\``).join(', ')}.`
    : '';
  return `Kubernetes ${c.rule.apiVersion} ${c.rule.name}, left untyped in this binding to keep it small: ${c.rule.build}.${extras}`;
}

function withNote(description: Json | undefined, note: string): string {
  return typeof description === 'string' && description.trim() !== '' ? `${description.trimEnd()}\n\n${note}` : note;
}

interface PruneStats {
  /** Replacements per Kubernetes type name. */
  readonly counts: Map<string, number>;
}

/**
 * Returns a copy of `schema` with every embedded core Kubernetes type replaced by
 * `{ type: object, x-kubernetes-preserve-unknown-fields: true, description }`.
 */
function pruneCoreTypes(schema: JsonObject, stats: PruneStats): JsonObject {
  const c = classify(schema);
  if (c) {
    stats.counts.set(c.rule.name, (stats.counts.get(c.rule.name) ?? 0) + 1);
    return {
      'description': withNote(schema.description, opaqueNote(c)),
      'type': 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    };
  }
  const out: JsonObject = {};
  let elementNote: string | undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isObject(value)) {
      const props: JsonObject = {};
      for (const [name, sub] of Object.entries(value)) {
        props[name] = isObject(sub) ? pruneCoreTypes(sub, stats) : sub;
      }
      out[key] = props;
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) {
      // json2jsii documents a list or map field with the description of the field itself, so the
      // note for opaque elements goes there too.
      const element = classify(value);
      if (element) {
        elementNote = `Each element: ${opaqueNote(element)}`;
      }
      out[key] = pruneCoreTypes(value, stats);
    } else {
      out[key] = value;
    }
  }
  if (elementNote) {
    out.description = withNote(schema.description, elementNote);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 1. L1 bindings via `cdk8s import`
// ---------------------------------------------------------------------------------------------

const GENERATED_BY_CDK8S = '// generated by cdk8s';

interface ModuleReport {
  readonly group: string;
  readonly schemaBytesBefore: number;
  readonly schemaBytesAfter: number;
  readonly tsBytes: number;
  readonly counts: Map<string, number>;
}

function buildModuleCrds(mod: ImportModule): { docs: JsonObject[]; report: Omit<ModuleReport, 'tsBytes'> } {
  const docs: JsonObject[] = [];
  const counts = new Map<string, number>();
  let before = 0;
  let after = 0;
  for (const src of mod.sources) {
    const crd = readCrd(src.file);
    const spec = asObject(crd.spec, `${src.file} spec`);
    if (spec.group !== mod.group) {
      throw new Error(`${src.file}: group is ${String(spec.group)}, expected ${mod.group}`);
    }
    const all = crdVersions(crd, src.file);
    const missing = src.versions.filter((v) => !all.some((x) => x.name === v));
    if (missing.length > 0) {
      throw new Error(`${src.file}: versions ${missing.join(', ')} not found (has ${all.map((x) => String(x.name)).join(', ')})`);
    }
    const kept = all.filter((v) => src.versions.includes(String(v.name)));
    const versions: JsonObject[] = [];
    for (const v of kept) {
      const what = `${src.file} ${String(v.name)}`;
      const schema = openApiSchema(v, what);
      before += JSON.stringify(schema).length;
      const pruned = mod.prune ? pruneCoreTypes(schema, { counts }) : schema;
      after += JSON.stringify(pruned).length;
      versions.push({ ...v, schema: { ...asObject(v.schema, what), openAPIV3Schema: pruned } });
    }
    docs.push({
      apiVersion: crd.apiVersion,
      kind: crd.kind,
      metadata: { name: asObject(crd.metadata, `${src.file} metadata`).name ?? null },
      spec: { ...spec, versions },
    });
  }
  return { docs, report: { group: mod.group, schemaBytesBefore: before, schemaBytesAfter: after, counts } };
}

function cdk8sCliEntry(): string {
  const pkgFile = require.resolve('cdk8s-cli/package.json', { paths: [ROOT] });
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as { bin?: { [name: string]: string } };
  const bin = pkg.bin?.cdk8s;
  if (!bin) {
    throw new Error('cdk8s-cli has no "cdk8s" bin');
  }
  return path.join(path.dirname(pkgFile), bin);
}

function runCdk8sImport(workDir: string, crdFile: string, outDir: string): void {
  // --no-check-upgrade: by default the CLI first asks registry.npmjs.org for its newest version
  // (caching an answer in ~/.cdk8s-cli.version). Without registry access that lookup prints
  // "http error: Redirected request failed: 404 ..." and a stack trace on stderr, which shows up
  // after the import's own output. The CLI catches that error, still imports and exits 0, and its
  // files are byte-identical to a run with the lookup switched off (checked when this script was
  // written). So we switch it off: the run stays offline and quiet with nothing to tolerate, and
  // `checkComplete` below still verifies every file.
  // --no-save: do not write the import into a cdk8s.yaml.
  const result = spawnSync(
    process.execPath,
    [cdk8sCliEntry(), 'import', '--no-check-upgrade', '--no-save', '--language', 'typescript', '--output', outDir, crdFile],
    { cwd: workDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.status !== 0) {
    throw new Error(`cdk8s import ${crdFile} failed (exit ${String(result.status)}):\n${result.stdout}\n${result.stderr}`);
  }
}

/** Fails unless `file` has a class for every kept CRD version and parses as TypeScript. */
function checkComplete(file: string, docs: JsonObject[]): void {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.startsWith(GENERATED_BY_CDK8S)) {
    throw new Error(`${file}: missing the cdk8s header`);
  }
  for (const doc of docs) {
    const spec = asObject(doc.spec, 'spec');
    const kind = String(asObject(spec.names, 'names').kind);
    for (const v of crdVersions(doc, kind)) {
      const gvk = `apiVersion: '${String(spec.group)}/${String(v.name)}',\n    kind: '${kind}',`;
      if (!text.includes(gvk)) {
        throw new Error(`${file}: no class for ${String(spec.group)}/${String(v.name)} ${kind}`);
      }
    }
  }
  // A cut-off file does not parse.
  const syntax = ts.transpileModule(text, { fileName: file, reportDiagnostics: true }).diagnostics ?? [];
  if (syntax.length > 0) {
    throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(syntax[0].messageText, '\n')}`);
  }
}

function importModules(): ModuleReport[] {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-inference-import-'));
  const reports: ModuleReport[] = [];
  try {
    const outDir = path.join(tmp, 'out');
    for (const mod of MODULES) {
      const { docs, report } = buildModuleCrds(mod);
      const crdFile = path.join(tmp, `${mod.group}.yaml`);
      fs.writeFileSync(crdFile, docs.map((d) => YAML.stringify(d, { lineWidth: 0 })).join('---\n'));
      runCdk8sImport(tmp, crdFile, outDir);
      const generated = path.join(outDir, `${mod.group}.ts`);
      if (!fs.existsSync(generated)) {
        throw new Error(`cdk8s import did not write ${mod.group}.ts`);
      }
      checkComplete(generated, docs);
      const sources = mod.sources.map((s) => `${s.file} (${s.versions.join(', ')})`).join('; ');
      const banner = [
        GENERATED_BY_CDK8S,
        `// by ${SCRIPT} (npx projen import) from ../shared/upstream: ${sources}.`,
        mod.prune ? '// Embedded core Kubernetes types are left untyped (build them with cdk8s-plus-34\'s k8s types).' : undefined,
        '// Do not edit.',
      ].filter((l): l is string => l !== undefined).join('\n');
      const text = fs.readFileSync(generated, 'utf8').replace(GENERATED_BY_CDK8S, banner);
      writeIfChanged(path.join(IMPORTS_DIR, `${mod.group}.ts`), text);
      reports.push({ ...report, tsBytes: Buffer.byteLength(text) });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  // Drop modules this script wrote earlier but no longer generates.
  const wanted = new Set(MODULES.map((m) => `${m.group}.ts`));
  for (const f of fs.readdirSync(IMPORTS_DIR)) {
    const file = path.join(IMPORTS_DIR, f);
    if (f.endsWith('.ts') && !wanted.has(f) && fs.readFileSync(file, 'utf8').startsWith(`${GENERATED_BY_CDK8S}\n// by ${SCRIPT}`)) {
      fs.rmSync(file);
    }
  }
  return reports;
}

// ---------------------------------------------------------------------------------------------
// 2. Internal types for the AI Runway schemas (json-schema-to-typescript)
// ---------------------------------------------------------------------------------------------

/** Field path below the schema root: `a.b` for properties, `[]` for list items. */
type Titles = { [path: string]: string };

const MODEL_DEPLOYMENT_SPEC_TITLES: Titles = {
  '': 'ModelDeploymentSpec',
  'model': 'ModelSpec',
  'model.storage': 'ModelStorage',
  'model.storage.volumes[]': 'StorageVolume',
  'engine': 'EngineSpec',
  'provider': 'ProviderSpec',
  'serving': 'ServingSpec',
  'scaling': 'ScalingSpec',
  'scaling.prefill': 'ComponentScalingSpec',
  'scaling.decode': 'ComponentScalingSpec',
  'resources': 'ResourceSpec',
  'resources.gpu': 'GpuSpec',
  'scaling.prefill.gpu': 'GpuSpec',
  'scaling.decode.gpu': 'GpuSpec',
  'env[]': 'EnvVar',
  'tolerations[]': 'Toleration',
  'podTemplate': 'PodTemplateMetadataSpec',
  'secrets': 'SecretsSpec',
  'gateway': 'GatewaySpec',
};

const MODEL_DEPLOYMENT_STATUS_TITLES: Titles = {
  '': 'ModelDeploymentStatus',
  'phase': 'ModelDeploymentPhase',
  'conditions[]': 'Condition',
  'engine': 'EngineStatus',
  'provider': 'ProviderStatus',
  'replicas': 'ReplicaStatus',
  'endpoint': 'EndpointStatus',
  'gateway': 'GatewayStatus',
  'image': 'ImageStatus',
};

const INFERENCE_PROVIDER_CONFIG_SPEC_TITLES: Titles = {
  '': 'InferenceProviderConfigSpec',
  'capabilities': 'ProviderCapabilities',
  'capabilities.engines[]': 'EngineCapability',
  'capabilities.engines[].gateway': 'GatewayCapabilities',
  'capabilities.engines[].gateway.endpointPicker': 'EndpointPickerSpec',
  'selectionRules[]': 'SelectionRule',
};

const INFERENCE_PROVIDER_CONFIG_STATUS_TITLES: Titles = {
  '': 'InferenceProviderConfigStatus',
  'conditions[]': 'Condition',
};

function deepClone<T extends Json>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function stripKeys(value: Json, drop: (key: string, parent: JsonObject) => boolean): Json {
  if (Array.isArray(value)) {
    return value.map((v) => stripKeys(v, drop));
  }
  if (isObject(value)) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value)) {
      if (!drop(k, value)) {
        out[k] = stripKeys(v, drop);
      }
    }
    return out;
  }
  return value;
}

/** `description` keywords (not properties that happen to be called "description"). */
function withoutDescriptions(schema: Json): Json {
  return stripKeys(schema, (key, parent) => key === 'description' && typeof parent.description === 'string');
}

function resolvePath(root: JsonObject, p: string): { parent?: JsonObject; key?: string; node: JsonObject } {
  if (p === '') {
    return { node: root };
  }
  let node = root;
  let parent: JsonObject | undefined;
  let key: string | undefined;
  for (const raw of p.split('.')) {
    const items = raw.endsWith('[]');
    const name = items ? raw.slice(0, -2) : raw;
    const props = asObject(node.properties, `${p}: properties of the parent of ${name}`);
    parent = props;
    key = name;
    node = asObject(props[name], `${p}: ${name}`);
    if (items) {
      parent = node;
      key = 'items';
      node = asObject(node.items, `${p}: items of ${name}`);
    }
  }
  return { parent, key, node };
}

/**
 * Gives the subschemas at `titles` their type names. A name given to several places becomes one
 * entry under `definitions` that those places `$ref` (json-schema-to-typescript then emits one
 * declaration; its doc comment is dropped, since each place describes its own use). Places that
 * share a name must have the same structure: if upstream makes them diverge, this fails instead
 * of guessing.
 */
function applyTitles(schema: JsonObject, titles: Titles, what: string): JsonObject {
  const root = deepClone(schema);
  const uses = new Map<string, number>();
  for (const title of Object.values(titles)) {
    uses.set(title, (uses.get(title) ?? 0) + 1);
  }
  const definitions: JsonObject = {};
  const sharedFrom = new Map<string, { path: string; shape: string }>();
  // Deepest first: a shared parent must already refer to its shared children when it is compared.
  const depth = (p: string): number => (p === '' ? 0 : p.split('.').length);
  for (const p of Object.keys(titles).sort((a, b) => depth(b) - depth(a) || a.localeCompare(b))) {
    const title = titles[p];
    const { parent, key, node } = resolvePath(root, p);
    if ((uses.get(title) ?? 0) === 1) {
      node.title = title;
      continue;
    }
    if (!parent || key === undefined) {
      throw new Error(`${what}: the root schema cannot share the name ${title}`);
    }
    const shape = JSON.stringify(withoutDescriptions(node));
    const seen = sharedFrom.get(title);
    if (!seen) {
      const { description: _description, ...rest } = node;
      definitions[title] = { ...rest, title };
      sharedFrom.set(title, { path: p, shape });
    } else if (seen.shape !== shape) {
      throw new Error(`${what}: ${seen.path} and ${p} are both named ${title} but differ in structure`);
    }
    parent[key] = { $ref: `#/definitions/${title}` };
  }
  if (Object.keys(definitions).length > 0) {
    root.definitions = definitions;
  }
  return root;
}

/**
 * Schema adjustments for json-schema-to-typescript: free-form objects
 * (`x-kubernetes-preserve-unknown-fields` without properties) become `{ [key: string]: unknown }`;
 * everything else is closed (the `additionalProperties: false` default below), so no index
 * signatures leak into ordinary interfaces.
 */
function openFreeFormObjects(value: Json): Json {
  if (Array.isArray(value)) {
    return value.map(openFreeFormObjects);
  }
  if (!isObject(value)) {
    return value;
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === 'properties' && isObject(v)
      ? Object.fromEntries(Object.entries(v).map(([name, sub]) => [name, openFreeFormObjects(sub)]))
      : openFreeFormObjects(v);
  }
  if (out['x-kubernetes-preserve-unknown-fields'] === true && !isObject(out.properties) && out.additionalProperties === undefined) {
    out.additionalProperties = true;
  }
  return out;
}

const JSON_TO_TS_OPTIONS: Partial<JsonToTsOptions> = {
  bannerComment: '',
  additionalProperties: false,
  maxItems: -1,
  unknownAny: true,
  declareExternallyReferenced: true,
  strictIndexSignatures: false,
  format: true,
  style: {
    bracketSpacing: true,
    printWidth: 120,
    semi: true,
    singleQuote: true,
    tabWidth: 2,
    trailingComma: 'all',
    useTabs: false,
  },
};

async function compileTypes(schema: JsonObject, titles: Titles, what: string): Promise<string> {
  const titled = applyTitles(schema, titles, what);
  const prepared = openFreeFormObjects(titled) as JsonObject;
  // The name argument is only used when the root has no title; every root here has one.
  return compile(prepared as CompileSchema, titles[''], { ...JSON_TO_TS_OPTIONS, cwd: ROOT });
}

interface AirunwayCrd {
  readonly file: string;
  readonly kind: string;
  readonly spec: JsonObject;
  readonly status: JsonObject;
}

function readAirunwayCrd(file: string, kind: string): AirunwayCrd {
  const crd = readCrd(file);
  const names = asObject(asObject(crd.spec, 'spec').names, 'names');
  if (names.kind !== kind) {
    throw new Error(`${file}: kind is ${String(names.kind)}, expected ${kind}`);
  }
  const versions = crdVersions(crd, file);
  const storage = versions.filter((v) => v.storage === true);
  if (storage.length !== 1) {
    throw new Error(`${file}: expected one storage version`);
  }
  const schema = openApiSchema(storage[0], file);
  const props = asObject(schema.properties, `${file} properties`);
  return {
    file,
    kind,
    spec: asObject(props.spec, `${file} spec schema`),
    status: asObject(props.status, `${file} status schema`),
  };
}

function generatedBanner(crd: AirunwayCrd, what: string): string {
  return [
    '/* eslint-disable */',
    '// Generated by scripts/import-crds.ts (npx projen import). Do not edit.',
    `// ${what}, from the ${crd.kind} CRD: ../shared/upstream/${crd.file}`,
    '',
  ].join('\n');
}

async function generateTypes(md: AirunwayCrd, ipc: AirunwayCrd): Promise<void> {
  const mdText = [
    generatedBanner(md, 'TypeScript types for the spec and status schemas'),
    await compileTypes(md.spec, MODEL_DEPLOYMENT_SPEC_TITLES, `${md.kind} spec`),
    await compileTypes(md.status, MODEL_DEPLOYMENT_STATUS_TITLES, `${md.kind} status`),
  ].join('\n');
  writeIfChanged(path.join(GENERATED_DIR, 'model-deployment-spec.ts'), normalizeNewlines(mdText));

  const ipcText = [
    generatedBanner(ipc, 'TypeScript types for the spec and status schemas'),
    await compileTypes(ipc.spec, INFERENCE_PROVIDER_CONFIG_SPEC_TITLES, `${ipc.kind} spec`),
    await compileTypes(ipc.status, INFERENCE_PROVIDER_CONFIG_STATUS_TITLES, `${ipc.kind} status`),
  ].join('\n');
  writeIfChanged(path.join(GENERATED_DIR, 'inference-provider-config-spec.ts'), normalizeNewlines(ipcText));
}

function normalizeNewlines(text: string): string {
  return `${text.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

// ---------------------------------------------------------------------------------------------
// 3. Description-free spec schemas for run-time validation
// ---------------------------------------------------------------------------------------------

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function tsString(s: string): string {
  // JSON escaping, re-quoted with single quotes.
  const inner = JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${inner}'`;
}

/** A TypeScript literal in the project's lint style (single quotes, trailing commas). */
function tsLiteral(value: Json, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return '[]';
    }
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)},\n`).join('')}${indent}]`;
  }
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) {
      return '{}';
    }
    // quote-props "consistent-as-needed": quote every key of an object if one needs it.
    const quote = keys.some((k) => !IDENTIFIER.test(k));
    const lines = keys.map((k) => `${inner}${quote ? tsString(k) : k}: ${tsLiteral(value[k], inner)},\n`);
    return `{\n${lines.join('')}${indent}}`;
  }
  if (typeof value === 'string') {
    return tsString(value);
  }
  return JSON.stringify(value);
}

function generateSchemas(md: AirunwayCrd, ipc: AirunwayCrd): void {
  const text = [
    '// Generated by scripts/import-crds.ts (npx projen import). Do not edit.',
    '// The `spec` and `status` schemas of the AI Runway CRDs (storage version) without descriptions,',
    '// for validating YAML input at run time and for the CRDs the controller construct installs.',
    `// Sources: ../shared/upstream/${md.file}, ../shared/upstream/${ipc.file}.`,
    '',
    '/** openAPIV3Schema of ModelDeployment `spec`. */',
    `export const MODEL_DEPLOYMENT_SPEC_SCHEMA: Record<string, unknown> = ${tsLiteral(withoutDescriptions(md.spec), '')};`,
    '',
    '/** openAPIV3Schema of ModelDeployment `status`. */',
    `export const MODEL_DEPLOYMENT_STATUS_SCHEMA: Record<string, unknown> = ${tsLiteral(withoutDescriptions(md.status), '')};`,
    '',
    '/** openAPIV3Schema of InferenceProviderConfig `spec`. */',
    `export const INFERENCE_PROVIDER_CONFIG_SPEC_SCHEMA: Record<string, unknown> = ${tsLiteral(withoutDescriptions(ipc.spec), '')};`,
    '',
    '/** openAPIV3Schema of InferenceProviderConfig `status`. */',
    `export const INFERENCE_PROVIDER_CONFIG_STATUS_SCHEMA: Record<string, unknown> = ${tsLiteral(withoutDescriptions(ipc.status), '')};`,
    '',
  ].join('\n');
  writeIfChanged(path.join(GENERATED_DIR, 'airunway-schemas.ts'), text);
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!fs.existsSync(UPSTREAM)) {
    throw new Error(`upstream CRDs not found at ${UPSTREAM}`);
  }
  fs.mkdirSync(IMPORTS_DIR, { recursive: true });

  const reports = importModules();
  let before = 0;
  let after = 0;
  let total = 0;
  for (const r of reports) {
    before += r.schemaBytesBefore;
    after += r.schemaBytesAfter;
    total += r.tsBytes;
    const counts = [...r.counts.entries()].map(([k, n]) => `${k} x${n}`).join(', ');
    console.log(`src/imports/${r.group}.ts: ${kiB(r.tsBytes)} (schema ${kiB(r.schemaBytesBefore)} -> ${kiB(r.schemaBytesAfter)})${counts ? `; untyped: ${counts}` : ''}`);
  }
  console.log(`src/imports total: ${kiB(total)} (schema ${kiB(before)} -> ${kiB(after)})`);

  const md = readAirunwayCrd('airunway/airunway.ai_modeldeployments.yaml', 'ModelDeployment');
  const ipc = readAirunwayCrd('airunway/airunway.ai_inferenceproviderconfigs.yaml', 'InferenceProviderConfig');
  await generateTypes(md, ipc);
  generateSchemas(md, ipc);
  console.log('src/core/generated: model-deployment-spec.ts, inference-provider-config-spec.ts, airunway-schemas.ts');
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  process.exitCode = 1;
});
