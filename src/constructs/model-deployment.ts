import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { addDeploymentRecord } from './deployment-record';
import type { ModelDeploymentManifestOptions, ModelDeploymentProps } from './model-deployment-props';
import { ensureNoNameCollisions } from './object-collisions';
import { propsToAnnotations } from './props-to-annotations';
import { propsToSpec } from './props-to-spec';
import { ProviderRegistry } from './provider-registry';
import { emittedObjectErrors } from '../admission/emitted-objects';
import { parseModelDeploymentManifest, validateModelDeploymentSpecSchema } from '../admission/model-deployment-manifest';
import { EngineType } from '../api/engine';
import { InferencePoolApiVersion } from '../api/gateway/gateway';
import type { InferencePoolTarget } from '../api/provider/inference-provider';
import { Warnings } from '../api/warnings';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { defaultDeploymentName } from '../core/object-names';
import { memoUntilChanged } from '../core/unchanged-objects-memo';
import { DEFAULT_ENDPOINT_PICKER_IMAGE } from '../gateway/endpoint-picker';
import type { RoutingDefaults } from '../gateway/model-routing';
import { renderModelDeployment } from '../pipeline/render';
import { defaultProviderCatalog } from '../pipeline/shipped-providers';
import { podOverrideErrors } from '../security/pod-overrides-guard';

/**
 * Longest default name: leaves room for the longest suffix a provider derives (`-model-download`)
 * within the 63 characters of a label value.
 */
const MAX_DEFAULT_NAME_LENGTH = 48;

/** Routing settings where no ProviderRegistry is in scope. */
const DEFAULT_ROUTING: RoutingDefaults = { inferencePoolApiVersion: InferencePoolApiVersion.V1, endpointPickerImage: DEFAULT_ENDPOINT_PICKER_IMAGE };

/** A deployment as the constructor reads it: the AI Runway object, or why there is none. */
interface DeploymentInput {
  md?: ModelDeploymentObject;
  readonly errors: FieldError[];
}

/**
 * The key under which `fromManifest` hands the parsed manifest to the constructor, inside the
 * props it passes (jsii has no constructor overloads). A symbol, so no user's props carry it and
 * it never crosses jsii.
 */
const MANIFEST_INPUT = Symbol('ModelDeployment.manifestInput');
type PropsFromManifest = ModelDeploymentProps & { readonly [MANIFEST_INPUT]?: DeploymentInput };

const MODEL_DEPLOYMENT_BRAND = brandSymbol('ModelDeployment');

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
  /** True if `x` is a ModelDeployment (also one made by another copy of this library). */
  public static isModelDeployment(x: any): x is ModelDeployment {
    return hasBrand(x, MODEL_DEPLOYMENT_BRAND);
  }

  /**
   * A ModelDeployment from an AI Runway manifest (a parsed YAML object with `apiVersion:
   * airunway.ai/v1alpha1`, `kind: ModelDeployment`, `metadata` and `spec`).
   */
  public static fromManifest(scope: Construct, id: string, manifest: any, options: ModelDeploymentManifestOptions = {}): ModelDeployment {
    const { gatewayRef, inferencePoolApiVersion, ...rest } = options;
    const props: PropsFromManifest = {
      ...rest,
      model: {},
      gateway: { gatewayRef, inferencePoolApiVersion },
      [MANIFEST_INPUT]: parseModelDeploymentManifest(manifest),
    };
    return new ModelDeployment(scope, id, props);
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
    addBrand(this, MODEL_DEPLOYMENT_BRAND);
    const input = (props as PropsFromManifest)[MANIFEST_INPUT] ?? this.inputFromProps(props);
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
    const catalog = registry ? registry._catalog(this.node.path) : defaultProviderCatalog();
    const rendered = renderModelDeployment(this, input.md, {
      podSecurity: { fromProps: props.podSecurity, registryDefault: registry?.podSecurity },
      catalog,
      routing: { gatewayRef: props.gateway?.gatewayRef, inferencePoolApiVersion: props.gateway?.inferencePoolApiVersion },
      routingDefaults: registry?._routingDefaults() ?? DEFAULT_ROUTING,
      nodePools: registry?._nodePools(this.node.path) ?? [],
    });
    this.fieldErrors.push(...rendered.errors);
    const { resolved, provider, view } = rendered;
    if (!resolved || !provider || !view || this.fieldErrors.length > 0) return;
    this.apiObjects.push(...rendered.objects);
    this._modelServerPods = rendered.modelServerPods;
    this.engineType = resolved.engine as EngineType;
    this.providerName = resolved.provider;
    this.engineSelectedReason = resolved.engineReason;
    this.providerSelectedReason = resolved.providerReason;

    if (props.emitRecord ?? true) {
      this.record = addDeploymentRecord(this, resolved, provider.recordAnnotations(view), this.apiObjects);
      // The record is what the construct stands for (`ApiObject.of(deployment)`, escape hatches).
      this.node.defaultChild = this.record;
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
  private inputFromProps(props: ModelDeploymentProps): DeploymentInput {
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
