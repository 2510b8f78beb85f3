import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import type { ModelDeploymentManifestOptions, ModelDeploymentProps } from './model-deployment-props';
import { ensureNoNameCollisions } from './object-collisions';
import { propsToAnnotations } from './props-to-annotations';
import { propsToSpec } from './props-to-spec';
import { ProviderRegistry } from './provider-registry';
import { emittedObjectErrors } from '../admission/emitted-objects';
import { parseModelDeploymentManifest, validateModelDeploymentSpecSchema } from '../admission/model-deployment-manifest';
import { EngineType } from '../api/engine';
import { InferencePoolApiVersion } from '../api/gateway/gateway';
import { podSecurityAnnotationErrors, withPodSecurityAnnotation } from '../api/pod-security-level';
import type { InferencePoolTarget } from '../api/provider/inference-provider';
import { toResolvedDeployment } from '../api/resolved-model-deployment';
import { Warnings } from '../api/warnings';
import { addAutoscalerFor } from '../autoscaling/autoscaler-objects';
import { upstreamFieldsAnnotation } from '../controller-contract/record-annotation';
import { FieldError, formatFieldError } from '../core/field-error';
import {
  ANNOTATION_ENGINE_REASON,
  ANNOTATION_PROVIDER_REASON,
  ANNOTATION_RECONCILE_PAUSED,
  LABEL_RENDERED_BY,
  RENDERED_BY_VALUE,
} from '../core/labels';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { movingImageTagWarnings } from '../core/moving-image-tag';
import { checkDerivedObjectNames, defaultDeploymentName } from '../core/object-names';
import { ANNOTATION_RENDERED_OBJECTS, encodeRenderedObjects } from '../core/rendered-objects';
import { memoUntilChanged } from '../core/unchanged-objects-memo';
import { insufficientCapacityErrors } from '../dra/capacity-fit';
import { addDeviceClaimTemplates } from '../dra/claim-templates';
import { DEFAULT_ENDPOINT_PICKER_IMAGE } from '../gateway/endpoint-picker';
import { addModelRouting, attachToGateway, planModelRouting, RoutingDefaults } from '../gateway/model-routing';
import * as airunway from '../imports/airunway.ai';
import { resolveModelDeployment, Resolution } from '../pipeline/resolve';
import { defaultProviderCatalog } from '../pipeline/shipped-providers';
import { podOverrideErrors } from '../security/pod-overrides-guard';
import { singleNodeVolumeWarnings } from '../storage/single-node-volume';

/**
 * Longest default name: leaves room for the longest suffix a provider derives (`-model-download`)
 * within the 63 characters of a label value.
 */
const MAX_DEFAULT_NAME_LENGTH = 48;

/** Routing settings where no ProviderRegistry is in scope. */
const DEFAULT_ROUTING: RoutingDefaults = { inferencePoolApiVersion: InferencePoolApiVersion.V1, endpointPickerImage: DEFAULT_ENDPOINT_PICKER_IMAGE };

/** The input of the construct being built by `fromManifest` (jsii has no constructor overloads). */
let manifestInput: { md?: ModelDeploymentObject; errors: FieldError[] } | undefined;

/**
 * An LLM served on Kubernetes, with AI Runway's `ModelDeployment` API and semantics.
 *
 * At construction the spec is defaulted and validated as AI Runway's admission webhook would, an
 * engine and a provider are selected from the `ProviderRegistry` by capabilities and CEL rules,
 * and the provider's upstream objects are created as children. Every error of the deployment is
 * reported together when the app synthesizes, each with its field path; nothing is synthesized
 * for an invalid deployment.
 */
export class ModelDeployment extends Construct {
  /**
   * A ModelDeployment from an AI Runway manifest (a parsed YAML object with `apiVersion:
   * airunway.ai/v1alpha1`, `kind: ModelDeployment`, `metadata` and `spec`).
   */
  public static fromManifest(scope: Construct, id: string, manifest: any, options: ModelDeploymentManifestOptions = {}): ModelDeployment {
    manifestInput = parseModelDeploymentManifest(manifest);
    try {
      const { gatewayRef, inferencePoolApiVersion, ...rest } = options;
      return new ModelDeployment(scope, id, { ...rest, model: {}, gateway: { gatewayRef, inferencePoolApiVersion } });
    } finally {
      manifestInput = undefined;
    }
  }

  /** Name of the deployment (and of the upstream objects derived from it). */
  public readonly name: string;

  /**
   * Namespace of the deployment.
   * @default - the chart's namespace, if any
   */
  public readonly namespace?: string;

  /**
   * The engine that runs the model (explicit or auto-selected); undefined when invalid.
   */
  public readonly engineType?: EngineType;

  /**
   * The provider that deploys the model (explicit or auto-selected); undefined when invalid.
   */
  public readonly providerName?: string;

  /**
   * Why the engine was chosen; undefined when invalid.
   */
  public readonly engineSelectedReason?: string;

  /**
   * Why the provider was chosen; undefined when invalid.
   */
  public readonly providerSelectedReason?: string;

  /**
   * The synthesized upstream objects (escape hatch: `addJsonPatch` reaches their final JSON).
   */
  public readonly apiObjects: ApiObject[];

  /**
   * The `airunway.ai/v1alpha1` ModelDeployment record, unless `emitRecord` is false or the
   * deployment is invalid.
   */
  public readonly record?: ApiObject;

  /**
   * The model-server pods (labels) and serving port its provider names, for the policies that
   * select them (`ModelDeploymentDisruptionBudget`, `ModelDeploymentNetworkPolicy`).
   * @internal
   */
  public _modelServerPods?: InferencePoolTarget;

  /** Field errors found at construction, reported by `App.synth()`. */
  private readonly fieldErrors: FieldError[];

  public constructor(scope: Construct, id: string, props: ModelDeploymentProps) {
    super(scope, id);
    const input = manifestInput ?? this.inputFromProps(props);
    manifestInput = undefined;
    if (input.md && input.md.namespace === undefined) {
      const namespace = chartNamespace(this);
      if (namespace !== undefined) input.md = { ...input.md, namespace };
    }
    this.name = input.md?.name ?? props.metadata?.name ?? defaultDeploymentName(id, MAX_DEFAULT_NAME_LENGTH);
    this.namespace = input.md?.namespace;
    this.apiObjects = [];
    this.fieldErrors = [...input.errors];
    this.node.addValidation({ validate: () => this.fieldErrors.map(formatFieldError) });
    ensureNoNameCollisions(this);
    if (!input.md) return;

    const registry = props.providerRegistry ?? ProviderRegistry.tryOf(this);
    // The pod security level is written onto the deployment, so the translators and the record agree.
    const podSecurity = withPodSecurityAnnotation(input.md.annotations, { fromProps: props.podSecurity, registryDefault: registry?.podSecurity });
    input.md = { ...input.md, ...(podSecurity.annotations && { annotations: podSecurity.annotations }) };
    this.fieldErrors.push(...podSecurity.errors, ...podSecurityAnnotationErrors(podSecurity.annotations));
    const catalog = registry ? registry._catalog(this.node.path) : defaultProviderCatalog();
    const resolution: Resolution = resolveModelDeployment(input.md, catalog, {
      gatewayKnown: (props.gateway?.gatewayRef ?? registry?.gateway) !== undefined,
    });
    for (const w of resolution.warnings) Warnings.add(this, w);
    this.fieldErrors.push(...resolution.errors);
    const resolved = resolution.resolved;
    const provider = resolution.provider;
    if (!resolved || !provider || this.fieldErrors.length > 0) return;

    const routing = planModelRouting({
      md: resolved,
      provider,
      providerConfig: catalog.entries.find((e) => e.name === resolved.provider),
      deployment: { gatewayRef: props.gateway?.gatewayRef, inferencePoolApiVersion: props.gateway?.inferencePoolApiVersion },
      defaults: registry?._routingDefaults() ?? DEFAULT_ROUTING,
    });
    for (const w of routing.warnings) Warnings.add(this, w);
    if (routing.errors.length > 0) {
      this.fieldErrors.push(...routing.errors);
      return;
    }

    const view = toResolvedDeployment(resolved);
    // A target that places its pods elsewhere (modelplane's fleet) needs neither our claim
    // templates nor a check against this cluster's node pools.
    const targetSchedules = provider.schedulesDevicesItself(view);
    const pools = targetSchedules ? [] : registry?._nodePools(this.node.path) ?? [];
    const capacityErrors = insufficientCapacityErrors(resolved, pools);
    if (capacityErrors.length > 0) {
      this.fieldErrors.push(...capacityErrors);
      return;
    }

    const objects = provider.translate(this, view);
    this._modelServerPods = provider.inferencePoolTarget(view);
    if (!targetSchedules) objects.push(...addDeviceClaimTemplates(this, resolved));
    objects.push(...addAutoscalerFor(this, resolved, provider));
    if (routing.plan) objects.push(...addModelRouting(this, routing.plan));
    const nameErrors = checkDerivedObjectNames(resolved.name, objects.map((o) => ({ kind: o.kind, name: o.name })));
    if (nameErrors.length > 0) {
      // Nothing half-written: an invalid deployment contributes no objects to the output.
      for (const o of objects) this.node.tryRemoveChild(o.node.id);
      this.fieldErrors.push(...nameErrors);
      return;
    }
    this.apiObjects.push(...objects);
    // Legal but surprising in production: a moving image the author chose, a single-node claim shared by several pods.
    for (const w of movingImageTagWarnings(resolved.spec, resolved.annotations)) Warnings.add(this, w);
    for (const w of singleNodeVolumeWarnings(resolved, objects)) Warnings.add(this, w);
    if (routing.plan) attachToGateway(this, routing.plan);
    this.engineType = resolved.engine as EngineType;
    this.providerName = resolved.provider;
    this.engineSelectedReason = resolved.engineReason;
    this.providerSelectedReason = resolved.providerReason;

    if (props.emitRecord ?? true) {
      // A plain ApiObject with the L1's GVK: the L1's typed props would re-map the JSON spec.
      this.record = new ApiObject(this, 'Record', {
        ...airunway.ModelDeployment.GVK,
        metadata: {
          name: resolved.name,
          ...(resolved.namespace !== undefined && { namespace: resolved.namespace }),
          // Marked as rendered: our controller reconciles only such records, and AI Runway's
          // controllers pause on them instead of creating a second set of objects.
          labels: { ...resolved.labels, [LABEL_RENDERED_BY]: RENDERED_BY_VALUE },
          annotations: {
            ...resolved.annotations,
            ...provider.recordAnnotations(view),
            // What its custom resources need of the cluster's CRDs: the controller reports IncompatibleUpstream otherwise.
            ...upstreamFieldsAnnotation(this.apiObjects),
            [ANNOTATION_RECONCILE_PAUSED]: 'true',
            [ANNOTATION_ENGINE_REASON]: resolved.engineReason,
            [ANNOTATION_PROVIDER_REASON]: resolved.providerReason,
            // What was synthesized for it: the controller gives these ownerReferences on request.
            [ANNOTATION_RENDERED_OBJECTS]: encodeRenderedObjects(this.apiObjects.map((o) => ({
              apiVersion: o.apiVersion,
              kind: o.kind,
              name: o.name,
              ...(o.metadata.namespace !== resolved.namespace && { namespace: o.metadata.namespace }),
            }))),
          },
        },
        spec: resolved.spec,
      });
      keepOverridesVerbatim(this.record, resolved.spec.provider?.overrides);
    }

    // Checks of the final JSON (overrides merge as objects render), each remembered until an object
    // changes: cdk8s validates the app again for every chart it renders.
    const emitted = [...this.apiObjects, ...(this.record ? [this.record] : [])];
    // What the API server would refuse.
    const emittedErrors = memoUntilChanged(emitted, () => emittedObjectErrors(emitted, resolved.spec).map(formatFieldError));
    this.node.addValidation({ validate: emittedErrors });
    // Overrides that take a pod below the Pod Security Standard "baseline", unless the registry allows it.
    const allowPrivileged = registry?.allowPrivilegedPodOverrides ?? false;
    const overrides = resolved.spec.provider?.overrides;
    const overrideErrors = memoUntilChanged(this.apiObjects, () =>
      podOverrideErrors(this.apiObjects, overrides, allowPrivileged).map(formatFieldError));
    this.node.addValidation({ validate: overrideErrors });
  }

  /**
   * Warnings recorded for this deployment (legal but probably unintended settings).
   */
  public get warnings(): string[] {
    return Warnings.collect(this).map((w) => w.message);
  }

  /** Props as an AI Runway object, checked against the CRD schema like YAML input is. */
  private inputFromProps(props: ModelDeploymentProps): { md?: ModelDeploymentObject; errors: FieldError[] } {
    const { annotations, errors: annotationErrors } = propsToAnnotations(props);
    const md = this.objectFromProps(props, annotations);
    const errors = [...annotationErrors, ...validateModelDeploymentSpecSchema(md.spec)];
    return errors.length > 0 ? { errors } : { md, errors };
  }

  private objectFromProps(props: ModelDeploymentProps, annotations: { [key: string]: string } | undefined): ModelDeploymentObject {
    const meta = props.metadata ?? {};
    return {
      name: meta.name ?? defaultDeploymentName(this.node.id, MAX_DEFAULT_NAME_LENGTH),
      ...(meta.namespace !== undefined && { namespace: meta.namespace }),
      ...(meta.labels && { labels: { ...meta.labels } }),
      ...(annotations && { annotations }),
      spec: propsToSpec(props),
    };
  }
}

function chartNamespace(scope: Construct): string | undefined {
  try {
    return Chart.of(scope).namespace;
  } catch {
    return undefined;
  }
}

/**
 * cdk8s drops `null`s when it renders an object, but in `provider.overrides` a `null` is meaningful
 * (it removes or nulls a key in the provider's objects): put the overrides back as they were so
 * the record says what was translated.
 */
function keepOverridesVerbatim(record: ApiObject, overrides: unknown): void {
  if (overrides === undefined) return;
  const render = record.toJson.bind(record);
  record.toJson = () => {
    const json = render();
    if (json.spec?.provider) json.spec.provider.overrides = structuredClone(overrides);
    return json;
  };
}
