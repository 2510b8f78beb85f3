import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { admitRoutesFrom, referencedGatewayWarning } from './allowed-routes';
import { addEndpointPicker, DEFAULT_ENDPOINT_PICKER_PORT, endpointPickerResources } from './endpoint-picker';
import { addHttpRoute } from './http-route';
import { addInferencePool, inferencePoolGroup, InferencePoolApiVersionString } from './inference-pool';
import { warnIfNoBodyBasedRouter } from './missing-body-based-router';
import { MAX_ROUTED_MODEL_NAME_LENGTH, MODEL_NAME_HEADER, routedModelNameSource } from './model-name';
import { addPoolReferenceGrant } from './reference-grant';
import {
  DEFAULT_ENDPOINT_PICKER,
  defaultEndpointPickerConfig,
  EndpointPicker,
  endpointPickerAnnotationErrors,
  endpointPickerImageFor,
  endpointPickerOf,
  ENDPOINT_PICKER_ANNOTATION,
} from '../api/gateway/endpoint-picker-choice';
import type { EndpointPickerResources } from '../api/gateway/endpoint-picker-resources';
import type { GatewayRef, InferencePoolApiVersion } from '../api/gateway/gateway';
import { loraAdapterNames } from '../api/lora/lora-annotation';
import type { InferencePoolTarget, InferenceProvider } from '../api/provider/inference-provider';
import type { ProviderConfigEntry } from '../api/provider/provider-config-entry';
import { ResolvedModelDeployment, toResolvedDeployment } from '../api/resolved-model-deployment';
import { Warnings } from '../api/warnings';
import { FieldError, invalid, required } from '../core/field-error';
import type { GatewayCapabilities } from '../core/generated/inference-provider-config-spec';
import { LABEL_MANAGED_BY, LABEL_MODEL_DEPLOYMENT, MANAGED_BY_VALUE } from '../core/labels';
import { checkDerivedObjectNames } from '../core/object-names';

/** Routing settings of the registry in scope (AI Runway's controller flags). */
export interface RoutingDefaults {
  readonly gateway?: GatewayRef;
  readonly inferencePoolApiVersion: InferencePoolApiVersion;
  readonly endpointPickerImage: string;
  readonly endpointPickerResources?: EndpointPickerResources;
  /**
   * The picker generation of deployments that do not choose one (annotation
   * `inference.cdk8s.io/endpoint-picker`).
   * @default EndpointPicker.LLMD_ROUTER
   */
  readonly endpointPicker?: EndpointPicker;
}

/** Routing settings a deployment sets for itself, over the registry's. */
export interface DeploymentRouting {
  readonly gatewayRef?: GatewayRef;
  readonly inferencePoolApiVersion?: InferencePoolApiVersion;
}

/** The pool that HTTPRoutes point at: ours, or the provider's own. */
interface PoolReference {
  readonly group: string;
  readonly name: string;
  readonly namespace: string;
}

/**
 * What the gateway integration will synthesize for one deployment. Decided before anything is
 * created, so a deployment with a routing error contributes no objects at all.
 */
export interface RoutingPlan {
  readonly md: ResolvedModelDeployment;
  readonly namespace: string;
  readonly gateway: GatewayRef;
  readonly modelName: string;
  /** The LoRA adapters' names, routed like the model name (`inference.cdk8s.io/lora`). */
  readonly adapterNames: readonly string[];
  readonly pool: PoolReference;
  readonly poolApiVersion: InferencePoolApiVersionString;
  /** Set for a controller-managed pool (with its endpoint picker); undefined when the provider manages it. */
  readonly controllerManaged?: {
    readonly target: InferencePoolTarget;
    readonly endpointPickerImage: string;
    readonly endpointPickerConfig: string;
    readonly endpointPickerResources?: EndpointPickerResources;
    /** The picker generation (its RBAC follows it). */
    readonly endpointPicker: EndpointPicker;
  };
  readonly httpRoute: boolean;
}

/** Inputs of `planModelRouting`. */
export interface RoutingInput {
  readonly md: ResolvedModelDeployment;
  /** The selected provider: its routing facts (pool target, endpoint picker configuration, simulated backend). */
  readonly provider: InferenceProvider;
  /** The provider's config as registered (its gateway capability). */
  readonly providerConfig?: ProviderConfigEntry;
  readonly deployment: DeploymentRouting;
  readonly defaults: RoutingDefaults;
}

/**
 * Decides the gateway integration of a deployment at build time (AI Runway's core does it at run
 * time, once the deployment is Running):
 *
 * - routing is on when `spec.gateway.enabled` is true, or unset and a Gateway is known (the
 *   deployment's `gatewayRef`, else the registry's) — the build-time reading of "enabled
 *   whenever the Inference Extension is installed"; `enabled: true` without a Gateway is an error;
 * - a deployment on a simulated backend (a mocker) never routes (as upstream);
 * - a provider whose capability says `managesInferencePool` gets no pool or endpoint picker of
 *   ours: the HTTPRoute points at its pool, named by its pattern, with a ReferenceGrant when the
 *   pool lives in another namespace;
 * - otherwise an InferencePool `<md>` over the provider's serving pods and an endpoint picker
 *   `<md>-epp` (the capability's image, else the registry's; the configuration the provider
 *   chooses from its capability's, else the default configuration) of the generation the
 *   deployment's annotation `inference.cdk8s.io/endpoint-picker` names, else the registry's
 *   (`endpointPickerImageFor` says which images follow it). An annotation that picks no picker
 *   here (routing off, or the provider's own pool) gets a warning: it changes nothing;
 * - an HTTPRoute `<md>` unless `spec.gateway.httpRouteRef` names the user's own, matching the
 *   model name and the name of each LoRA adapter the deployment serves.
 */
export function planModelRouting(input: RoutingInput): { plan?: RoutingPlan; errors: FieldError[]; warnings: string[] } {
  const { md, provider, deployment, defaults } = input;
  const spec = md.spec;
  const view = toResolvedDeployment(md);
  const gateway = deployment.gatewayRef ?? defaults.gateway;
  const pickerErrors = endpointPickerAnnotationErrors(md.annotations);
  if (pickerErrors.length > 0) return { errors: pickerErrors, warnings: [] };
  const chosenPicker = endpointPickerOf(md.annotations);
  const endpointPicker = chosenPicker ?? defaults.endpointPicker ?? DEFAULT_ENDPOINT_PICKER;
  const unusedChoice = (why: string): string[] => (chosenPicker === undefined ? [] : [
    `annotation ${ENDPOINT_PICKER_ANNOTATION}: ${chosenPicker} changes nothing: ${why}; remove the annotation`,
  ]);
  // resolve() has already written the build-time decision into spec.gateway.enabled.
  const enabled = spec.gateway?.enabled ?? gateway !== undefined;
  if (!enabled || provider.simulatedBackend(view) !== undefined) {
    return { errors: [], warnings: unusedChoice('the deployment is not routed, so no endpoint picker is synthesized') };
  }
  if (!gateway) {
    return {
      warnings: [],
      errors: [
        invalid(
          'spec.gateway.enabled',
          true,
          'routing needs a Gateway: set gateway.gatewayRef on the deployment or gateway on the ProviderRegistry (CLI: --gateway NAMESPACE/NAME), or set gateway.enabled to false',
        ),
      ],
    };
  }
  const errors: FieldError[] = [];
  if (md.namespace === undefined) {
    errors.push(required('metadata.namespace', 'routing needs the deployment namespace: the HTTPRoute and InferencePool references name it (set it, or the chart namespace)'));
  }
  const capability = gatewayCapability(input.providerConfig, md.engine);
  const routed = routedModelNameSource(spec, capability?.ignoresServedName === true);
  const modelName = routed?.name;
  if (routed === undefined) {
    errors.push(required('spec.gateway.modelName', 'no model name to route: the model has no id and no served name (custom source); set gateway.modelName'));
  } else if (routed.name.length > MAX_ROUTED_MODEL_NAME_LENGTH) {
    errors.push(invalid(routed.field, `${routed.name.slice(0, 64)}… (${routed.name.length} characters)`,
      `the routed model name is matched in the ${MODEL_NAME_HEADER} header, whose match value the Gateway API caps at ${MAX_ROUTED_MODEL_NAME_LENGTH} characters; set gateway.modelName to a shorter name`));
  }
  const poolApiVersion = (deployment.inferencePoolApiVersion ?? defaults.inferencePoolApiVersion) as InferencePoolApiVersionString;
  const namespace = md.namespace ?? '';

  let pool: PoolReference;
  let controllerManaged: RoutingPlan['controllerManaged'];
  const warnings: string[] = [];
  if (capability?.managesInferencePool) {
    warnings.push(...unusedChoice(`provider "${md.provider}" manages its own InferencePool and endpoint picker`));
    pool = {
      group: inferencePoolGroup(poolApiVersion),
      name: substitute(capability.inferencePoolNamePattern, md) || md.name,
      namespace: substitute(capability.inferencePoolNamespace, md) || namespace,
    };
  } else {
    pool = { group: inferencePoolGroup(poolApiVersion), name: md.name, namespace };
    const target = provider.inferencePoolTarget(view);
    if (!target) {
      errors.push(invalid('spec.provider.name', md.provider, `provider "${md.provider}" exposes no model server pods for an InferencePool and does not manage its own; set gateway.enabled to false`));
    } else {
      // The endpoint picker's Service name is the longest derived name: check it before building.
      errors.push(...checkDerivedObjectNames(md.name, [{ kind: 'Service', name: `${md.name}-epp` }]));
      const providerImage = capability?.endpointPicker?.image;
      controllerManaged = {
        target,
        endpointPickerImage: endpointPickerImageFor(providerImage || defaults.endpointPickerImage, endpointPicker, !!providerImage),
        endpointPickerConfig: provider.endpointPickerConfig(view, capability?.endpointPicker?.configData, endpointPicker)
          || defaultEndpointPickerConfig(endpointPicker),
        endpointPickerResources: defaults.endpointPickerResources,
        endpointPicker,
      };
    }
  }
  if (errors.length > 0) return { errors, warnings: [] };
  return {
    warnings,
    plan: {
      md,
      namespace,
      gateway,
      modelName: modelName!,
      adapterNames: loraAdapterNames(md.annotations),
      pool,
      poolApiVersion,
      controllerManaged,
      httpRoute: !spec.gateway?.httpRouteRef,
    },
    errors,
  };
}

/**
 * Creates the planned routing objects under `scope`: pool, endpoint picker, ReferenceGrant,
 * HTTPRoute, in that order. The Gateway is touched separately (`attachToGateway`), once the
 * deployment is known to be valid.
 */
export function addModelRouting(scope: Construct, plan: RoutingPlan): ApiObject[] {
  const { md, namespace, pool } = plan;
  const labels = { [LABEL_MANAGED_BY]: MANAGED_BY_VALUE, [LABEL_MODEL_DEPLOYMENT]: md.name };
  const objects: ApiObject[] = [];
  if (plan.controllerManaged) {
    const eppName = `${md.name}-epp`;
    objects.push(
      addInferencePool(scope, {
        name: pool.name,
        namespace,
        labels,
        selector: plan.controllerManaged.target.selector,
        targetPort: plan.controllerManaged.target.targetPort,
        endpointPickerName: eppName,
        endpointPickerPort: DEFAULT_ENDPOINT_PICKER_PORT,
        apiVersion: plan.poolApiVersion,
      }),
      ...addEndpointPicker(scope, {
        deploymentName: md.name,
        namespace,
        labels,
        poolName: pool.name,
        poolApiVersion: plan.poolApiVersion,
        image: plan.controllerManaged.endpointPickerImage,
        configData: plan.controllerManaged.endpointPickerConfig,
        resources: endpointPickerResources(plan.controllerManaged.endpointPickerResources),
        port: DEFAULT_ENDPOINT_PICKER_PORT,
        endpointPicker: plan.controllerManaged.endpointPicker,
      }),
    );
  } else if (pool.namespace !== namespace) {
    objects.push(addPoolReferenceGrant(scope, { pool, routeNamespace: namespace, labels }));
  }
  if (plan.httpRoute) {
    objects.push(addHttpRoute(scope, {
      name: md.name, namespace, labels, gateway: plan.gateway, modelName: plan.modelName, adapterNames: plan.adapterNames, pool,
    }));
  }
  return objects;
}

/**
 * Lets the HTTPRoute attach across namespaces: a Gateway in the same app admits the route's
 * namespace in its listeners; for a Gateway that is only referenced, a warning says it must.
 */
export function attachToGateway(scope: Construct, plan: RoutingPlan): void {
  if (!plan.httpRoute) return;
  if (plan.gateway.gateway) {
    admitRoutesFrom(plan.gateway.gateway, plan.namespace);
  } else if (plan.gateway.namespace !== plan.namespace) {
    Warnings.add(scope, referencedGatewayWarning(plan.gateway, plan.namespace));
  }
  // The route matches on a header only a body-based router sets.
  warnIfNoBodyBasedRouter(scope, `${plan.namespace}/${plan.md.name}`);
}

function gatewayCapability(config: ProviderConfigEntry | undefined, engine: string): GatewayCapabilities | undefined {
  return config?.spec.capabilities?.engines?.find((e) => e.name === engine)?.gateway;
}

/** `{name}` and `{namespace}` placeholders of a provider's pool pattern. */
function substitute(pattern: string | undefined, md: ResolvedModelDeployment): string {
  return (pattern ?? '').split('{name}').join(md.name).split('{namespace}').join(md.namespace ?? '');
}
