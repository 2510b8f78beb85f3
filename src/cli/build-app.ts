import { ApiObject, App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type { CliRouting } from './arguments';
import { applyClusterProfile, LoadedProfile, loadClusterProfile } from './cluster-profile';
import { documentLabel, InputDocument, InputProblem } from './input-documents';
import { GatewayRef, InferencePoolApiVersion } from '../api/gateway/gateway';
import type { NodePool } from '../api/node-pool';
import { PodSecurityLevel } from '../api/pod-security-level';
import { InferenceProviderConfig } from '../api/provider/inference-provider-config';
import { readInferenceProviderConfigManifest } from '../api/provider/inference-provider-config-manifest';
import { ModelDeployment } from '../constructs/model-deployment';
import { ProviderRegistry } from '../constructs/provider-registry';
import { formatFieldError } from '../core/field-error';
import { unrenderableKeyErrors } from '../core/unrenderable-keys';
import { NODE_POOL_API_VERSION, NODE_POOL_KIND, readNodePoolDocument } from '../dra/node-inventory';
import { BodyBasedRouter } from '../gateway/body-based-router';
import { checkYamlWritableStrings } from '../schema-validation/yaml-writable-strings';

/** A ModelDeployment built from one input document. */
export interface DocumentDeployment {
  readonly document: InputDocument;
  readonly deployment: ModelDeployment;
}

export interface BuiltApp {
  readonly app: App;
  readonly registry: ProviderRegistry;
  readonly deployments: DocumentDeployment[];
  /** Gateway documents of the input, passed through to the output. */
  readonly gateways: ApiObject[];
  readonly problems: InputProblem[];
  /** The `--profile` file, when given and valid (an invalid one is only reported). */
  readonly profile?: LoadedProfile;
  /** The input documents and the profile's, so a problem of either can point at its line. */
  readonly documents: readonly InputDocument[];
}

/**
 * Builds one cdk8s app from the input documents: InferenceProviderConfigs first (from every
 * file, so a provider may be defined after the deployments that use it), then the cluster
 * profile (`--profile`), then one ModelDeployment construct per ModelDeployment document.
 * Collects every problem.
 */
export function buildApp(documents: readonly InputDocument[], routing: CliRouting = {}): BuiltApp {
  const app = new App();
  const problems: InputProblem[] = [];
  let profile: LoadedProfile | undefined;
  let profileDocuments: readonly InputDocument[] = [];
  if (routing.profile !== undefined) {
    const loaded = loadClusterProfile(routing.profile);
    profileDocuments = loaded.loaded.documents;
    problems.push(...loaded.problems);
    // Half a profile would fail every deployment for providers it merely failed to list: an
    // invalid profile is reported and not applied.
    if (loaded.problems.length === 0) profile = loaded.loaded;
  }
  const gateways = addGatewayDocuments(new Chart(app, 'gateways', { disableResourceNameHashes: true }), documents, problems);
  const registry = buildRegistry(app, documents, problems, routing, gateways, profile);
  if (routing.bodyBasedRouterInstalled) BodyBasedRouter.fromExisting(app, 'BodyBasedRouter');
  const chart = new Chart(app, 'models', { disableResourceNameHashes: true });
  const deployments: DocumentDeployment[] = [];

  documents.forEach((doc, n) => {
    const kind = doc.content?.kind;
    if (kind === 'InferenceProviderConfig' || isGatewayDocument(doc) || isNodePoolDocument(doc)) return;
    if (kind !== 'ModelDeployment') {
      problems.push({
        file: doc.file,
        index: doc.index,
        message:
          `unsupported kind ${JSON.stringify(kind ?? null)}: expected ModelDeployment or InferenceProviderConfig (apiVersion airunway.ai/v1alpha1), ` +
          `or Gateway (gateway.networking.k8s.io/v1), or ${NODE_POOL_KIND} (${NODE_POOL_API_VERSION})`,
      });
      return;
    }
    const deployment = ModelDeployment.fromManifest(chart, `document-${n}`, doc.content);
    deployments.push({ document: doc, deployment });
    for (const message of deployment.node.validate()) {
      problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message });
    }
  });

  // Cross-deployment checks (name collisions) are registered on the app root.
  for (const message of app.node.validate()) problems.push(appProblem(message, documents));
  return { app, registry, deployments, gateways, problems, profile, documents: [...documents, ...profileDocuments] };
}

/**
 * A problem of the whole app (two documents synthesize the same object), named after the input
 * documents of the constructs it mentions (`models/document-N/...`, `gateways/gateway-N`) and
 * reported at the last of them: every error names a file and document.
 */
function appProblem(message: string, documents: readonly InputDocument[]): InputProblem {
  const gatewayDocuments = documents.filter(isGatewayDocument);
  let last: InputDocument | undefined;
  const named = message.replace(/\b(models\/document|gateways\/gateway)-(\d+)(?:\/[\w/-]*)?/g, (path: string, scope: string, n: string) => {
    // The ids of build-app's constructs: document-N is documents[N], gateway-N the Nth Gateway document.
    const doc = (scope === 'models/document' ? documents : gatewayDocuments)[Number(n)];
    if (!doc) return path;
    last = doc;
    return documentLabel(doc.file, doc.index);
  });
  return last ? { file: last.file, index: last.index, message: named } : { file: [...new Set(documents.map((d) => d.file))].join(', ') || '<no input>', message };
}

function isGatewayDocument(doc: InputDocument): boolean {
  return doc.content?.kind === 'Gateway' && doc.content?.apiVersion === 'gateway.networking.k8s.io/v1';
}

/** Gateway documents become objects of the app, so routes can be admitted by their listeners. */
function addGatewayDocuments(chart: Chart, documents: readonly InputDocument[], problems: InputProblem[]): ApiObject[] {
  const gateways: ApiObject[] = [];
  documents.filter(isGatewayDocument).forEach((doc, n) => {
    const meta = doc.content.metadata ?? {};
    if (typeof meta.name !== 'string' || typeof meta.namespace !== 'string') {
      problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message: 'metadata.name and metadata.namespace: Required value: a Gateway needs both' });
      return;
    }
    // Passed through to the output: it must be a Gateway the API server accepts, like what we generate.
    // Loaded here: the schema validator is needed only for inputs with Gateway documents.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { validateManifest } = require('../schema-validation/manifest-validator') as typeof import('../schema-validation/manifest-validator');
    const violations = [
      ...validateManifest(doc.content).map((v) => `${v.path}: ${v.message}`),
      ...unrenderableKeyErrors(doc.content, '').map(formatFieldError),
    ];
    checkYamlWritableStrings(doc.content, '', (path, message) => violations.push(`${path}: ${message}`));
    for (const message of violations) problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message });
    if (violations.length > 0) return;
    gateways.push(new ApiObject(chart, `gateway-${n}`, doc.content));
  });
  return gateways;
}

/**
 * The `--gateway` reference: the input's Gateway document of that name when there is one. Without
 * `--gateway`, the profile's Gateway (it exists in the cluster, so it is referenced by name).
 */
function gatewayRefOf(
  routing: CliRouting,
  gateways: readonly ApiObject[],
  problems: InputProblem[],
  profile?: LoadedProfile,
): GatewayRef | undefined {
  const wanted = routing.gateway;
  const inProfile = profile?.profile.gateways ?? [];
  const names = inProfile.map((g) => `${g.namespace}/${g.name}`);
  if (!wanted) {
    if (inProfile.length > 1) {
      problems.push({ file: profile!.file, message: `the profile holds ${inProfile.length} Gateways (${names.join(', ')}); keep the one model routes attach to, or choose it with --gateway NAMESPACE/NAME` });
    }
    return inProfile.length === 1 ? GatewayRef.fromName(inProfile[0].name, inProfile[0].namespace) : undefined;
  }
  const inApp = gateways.find((g) => g.name === wanted.name && g.metadata.namespace === wanted.namespace);
  if (!inApp && inProfile.length > 0 && !names.includes(`${wanted.namespace}/${wanted.name}`)) {
    problems.push({ file: profile!.file, message: `--gateway ${wanted.namespace}/${wanted.name} is neither a Gateway of the profile (${names.join(', ')}) nor a Gateway document of the input` });
  }
  return inApp ? GatewayRef.fromGateway(inApp) : GatewayRef.fromName(wanted.name, wanted.namespace);
}

/**
 * The shipped providers, with every InferenceProviderConfig document of the input added or
 * replacing a shipped one of the same name; then the cluster profile, which says which of them
 * are installed and ready (and may replace their specs). Node pools come from the input and the
 * profile.
 */
export function buildRegistry(
  scope: Construct,
  documents: readonly InputDocument[],
  problems: InputProblem[],
  routing: CliRouting = {},
  gateways: readonly ApiObject[] = [],
  profile?: LoadedProfile,
): ProviderRegistry {
  const registry = new ProviderRegistry(scope, 'Providers', {
    gateway: gatewayRefOf(routing, gateways, problems, profile),
    inferencePoolApiVersion: routing.inferencePoolApiVersion === 'v1alpha2' ? InferencePoolApiVersion.V1ALPHA2 : InferencePoolApiVersion.V1,
    ...(routing.podSecurity && { podSecurity: routing.podSecurity === 'restricted' ? PodSecurityLevel.RESTRICTED : PodSecurityLevel.BASELINE }),
  });
  for (const doc of documents) {
    if (doc.content?.kind !== 'InferenceProviderConfig') continue;
    const { entry, errors } = readInferenceProviderConfigManifest(doc.content);
    for (const e of errors) problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message: formatFieldError(e) });
    if (entry) registry.register(InferenceProviderConfig._fromEntry(entry));
  }
  const pools = new Map<string, InputDocument>();
  for (const doc of documents.filter(isNodePoolDocument)) {
    const { pool, errors } = readNodePoolDocument(doc.content);
    for (const e of errors) problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message: formatFieldError(e) });
    if (!pool) continue;
    const earlier = pools.get(pool.name);
    if (earlier) {
      problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message: `metadata.name: Duplicate value: ${JSON.stringify(pool.name)}: also declared in ${documentLabel(earlier.file, earlier.index)}` });
      continue;
    }
    pools.set(pool.name, doc);
    registry.addNodePool(pool as NodePool);
  }
  for (const { pool, at } of profile?.profile.nodePools ?? []) {
    const doc = profile!.document(at);
    const earlier = pools.get(pool.name);
    if (earlier) {
      problems.push({ file: doc.file, index: doc.index, message: `${at.prefix}metadata.name: Duplicate value: ${JSON.stringify(pool.name)}: also declared in ${documentLabel(earlier.file, earlier.index)}` });
      continue;
    }
    pools.set(pool.name, doc);
    registry.addNodePool(pool as NodePool);
  }
  if (profile) applyClusterProfile(registry, profile, problems);
  return registry;
}

/** A NodePool document of the declared inventory (src/dra/node-inventory.ts). */
function isNodePoolDocument(doc: InputDocument): boolean {
  return doc.content?.kind === NODE_POOL_KIND && doc.content?.apiVersion === NODE_POOL_API_VERSION;
}

export function subject(doc: InputDocument): string {
  const meta = doc.content?.metadata ?? {};
  const name = typeof meta.name === 'string' ? meta.name : '<unnamed>';
  return `${doc.content?.kind ?? 'object'} ${typeof meta.namespace === 'string' ? meta.namespace + '/' : ''}${name}`;
}
