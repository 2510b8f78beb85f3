import {
  INFERENCE_PROVIDER_CONFIG_SPEC_SCHEMA,
  INFERENCE_PROVIDER_CONFIG_STATUS_SCHEMA,
  MODEL_DEPLOYMENT_SPEC_SCHEMA,
  MODEL_DEPLOYMENT_STATUS_SCHEMA,
} from '../core/generated/airunway-schemas';

/*
 * The `airunway.ai/v1alpha1` CRDs the controller construct installs, built from the library's own
 * schema data (src/core/generated, generated from AI Runway's CRDs by `npx projen import`): the
 * same structural schema as AI Runway's, so they accept exactly what AI Runway's CRDs accept and a
 * cluster can switch between the two without losing stored objects. What differs is ours: the
 * printer columns kubectl shows, and the status fields of AI Runway's newer API that the imported
 * schema predates (`AIRUNWAY_NEWER_STATUS_FIELDS`), without which the API server would prune
 * them from every status the controller writes.
 */

/** `status.provider.requestRef` / `workloadRef` / `inferencePoolRef`: an object by name and uid. */
const OBJECT_REF_SCHEMA = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    name: { type: 'string' },
    namespace: { type: 'string' },
    uid: { type: 'string' },
  },
};

/**
 * AI Runway's newer status fields, which the imported ModelDeployment schema does not have yet:
 * `status.gateway.gatewayName` (beside `gatewayNamespace`) and `status.provider.requestRef`,
 * `workloadRef` and `inferencePoolRef` (beside `resourceName`/`resourceKind`). Added over the
 * generated schema rather than edited into it, so an import of a newer AI Runway CRD that has
 * them makes this overlay a no-op (see `withNewerStatusFields`) and the test comparing the two
 * CRDs names exactly these paths as the difference.
 */
export const AIRUNWAY_NEWER_STATUS_FIELDS: Readonly<Record<'gateway' | 'provider', Record<string, unknown>>> = {
  gateway: { gatewayName: { type: 'string' } },
  provider: { requestRef: OBJECT_REF_SCHEMA, workloadRef: OBJECT_REF_SCHEMA, inferencePoolRef: OBJECT_REF_SCHEMA },
};

/** The ModelDeployment status schema with AI Runway's newer status fields added (a copy; fields already there are kept as they are). */
export function withNewerStatusFields(status: Record<string, any>): Record<string, unknown> {
  const out = structuredClone(status);
  for (const [parent, fields] of Object.entries(AIRUNWAY_NEWER_STATUS_FIELDS)) {
    const node = out.properties?.[parent];
    if (!node?.properties) throw new Error(`the ModelDeployment status schema has no status.${parent} object to add ${Object.keys(fields).join(', ')} to`);
    for (const [name, schema] of Object.entries(fields)) if (!(name in node.properties)) node.properties[name] = structuredClone(schema);
  }
  return out;
}

const GROUP = 'airunway.ai';
const VERSION = 'v1alpha1';

interface CrdNames {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
}

interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'date' | 'boolean';
  readonly jsonPath: string;
  readonly description: string;
  readonly priority?: number;
}

function customResourceDefinition(
  names: CrdNames,
  scope: 'Namespaced' | 'Cluster',
  schemas: { spec: Record<string, unknown>; status: Record<string, unknown>; required?: string[] },
  columns: PrinterColumn[],
): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: { ...names, listKind: `${names.kind}List` },
      scope,
      versions: [{
        name: VERSION,
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: columns,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec: structuredClone(schemas.spec),
              status: structuredClone(schemas.status),
            },
            ...(schemas.required && { required: schemas.required }),
          },
        },
      }],
    },
  };
}

/** The ModelDeployment CRD: namespaced, with a status subresource and the controller's columns. */
export function modelDeploymentCrd(): Record<string, unknown> {
  return customResourceDefinition(
    { kind: 'ModelDeployment', plural: 'modeldeployments', singular: 'modeldeployment' },
    'Namespaced',
    { spec: MODEL_DEPLOYMENT_SPEC_SCHEMA, status: withNewerStatusFields(MODEL_DEPLOYMENT_STATUS_SCHEMA), required: ['spec'] },
    [
      { name: 'Provider', type: 'string', jsonPath: '.status.provider.name', description: 'Provider that deploys the model' },
      { name: 'Engine', type: 'string', jsonPath: '.status.engine.type', description: 'Inference engine' },
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'Lifecycle phase' },
      { name: 'Ready', type: 'integer', jsonPath: '.status.replicas.ready', description: 'Ready replicas' },
      { name: 'Endpoint', type: 'string', jsonPath: '.status.endpoint.service', description: 'In-cluster Service of the model server' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' },
    ],
  );
}

/** The InferenceProviderConfig CRD: cluster-scoped, as AI Runway's. */
export function inferenceProviderConfigCrd(): Record<string, unknown> {
  return customResourceDefinition(
    { kind: 'InferenceProviderConfig', plural: 'inferenceproviderconfigs', singular: 'inferenceproviderconfig' },
    'Cluster',
    { spec: INFERENCE_PROVIDER_CONFIG_SPEC_SCHEMA, status: INFERENCE_PROVIDER_CONFIG_STATUS_SCHEMA },
    [
      { name: 'Ready', type: 'boolean', jsonPath: '.status.ready', description: 'Whether the provider is ready' },
      { name: 'Version', type: 'string', jsonPath: '.status.version', description: 'Provider version' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Time since creation' },
    ],
  );
}
