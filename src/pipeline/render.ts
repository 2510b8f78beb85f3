import type { ApiObject } from 'cdk8s';
import type { Construct, IConstruct } from 'constructs';
import { resolveModelDeployment } from './resolve';
import { podSecurityAnnotationErrors, PodSecurityChoice, withPodSecurityAnnotation } from '../api/pod-security-level';
import type { InferencePoolTarget, InferenceProvider } from '../api/provider/inference-provider';
import type { ResolvedDeployment } from '../api/resolved-deployment';
import { ResolvedModelDeployment, toResolvedDeployment } from '../api/resolved-model-deployment';
import { Warnings } from '../api/warnings';
import { addAutoscalerFor } from '../autoscaling/autoscaler-objects';
import type { FieldError } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { movingImageTagWarnings } from '../core/moving-image-tag';
import { checkDerivedObjectNames } from '../core/object-names';
import { insufficientCapacityErrors } from '../dra/capacity-fit';
import { addDeviceClaimTemplates } from '../dra/claim-templates';
import type { NodePoolSpec } from '../dra/node-inventory';
import { addModelRouting, attachToGateway, DeploymentRouting, planModelRouting, RoutingDefaults } from '../gateway/model-routing';
import type { ProviderCatalog } from '../selection/provider-catalog';
import { singleNodeVolumeWarnings } from '../storage/single-node-volume';

/** What a deployment is rendered against: the registry's facts, or the shipped defaults. */
export interface RenderContext {
  /** The pod security level of the props and the registry's default, over the deployment's annotation. */
  readonly podSecurity: PodSecurityChoice;
  readonly catalog: ProviderCatalog;
  /** The deployment's own routing settings, over the registry's `routingDefaults`. */
  readonly routing: DeploymentRouting;
  readonly routingDefaults: RoutingDefaults;
  /** The declared node pools the deployment must fit (none: no capacity check). */
  readonly nodePools: readonly NodePoolSpec[];
}

/**
 * The outcome of rendering one deployment. With errors there are no objects (nothing
 * half-written); without, `resolved`, `provider` and `view` are set.
 */
export interface RenderedDeployment {
  readonly errors: FieldError[];
  readonly objects: ApiObject[];
  readonly resolved?: ResolvedModelDeployment;
  readonly provider?: InferenceProvider;
  /** The public view of `resolved` the provider translated. */
  readonly view?: ResolvedDeployment;
  /** The model-server pods and port the provider names, for policies that select them. */
  readonly modelServerPods?: InferencePoolTarget;
}

/**
 * The whole build-time pipeline of one deployment, under `scope`: write the pod security level
 * onto it, resolve (default, validate,
 * select engine and provider, the provider's checks), plan the routing, fit the declared node
 * pools, then create the provider's objects, the DRA claim templates, the autoscaler and the
 * routes, and check the names they derive. Warnings go onto `scope`. A stage that fails stops the
 * pipeline; objects already created are removed again, so an invalid deployment contributes none.
 */
export function renderModelDeployment(scope: Construct, input: ModelDeploymentObject, context: RenderContext): RenderedDeployment {
  // The pod security level is written onto the deployment, so the translators and the record agree.
  const podSecurity = withPodSecurityAnnotation(input.annotations, context.podSecurity);
  const md = { ...input, ...(podSecurity.annotations && { annotations: podSecurity.annotations }) };
  const podSecurityErrors = [...podSecurity.errors, ...podSecurityAnnotationErrors(podSecurity.annotations)];
  // A Gateway named for the deployment, by itself or by the registry, turns routing on.
  const gatewayKnown = (context.routing.gatewayRef ?? context.routingDefaults.gateway) !== undefined;
  const resolution = resolveModelDeployment(md, context.catalog, { gatewayKnown });
  for (const w of resolution.warnings) Warnings.add(scope, w);
  const errors = [...podSecurityErrors, ...resolution.errors];
  const { resolved, provider } = resolution;
  if (errors.length > 0 || !resolved || !provider) return { errors, objects: [] };

  const routing = planModelRouting({
    md: resolved,
    provider,
    providerConfig: context.catalog.entries.find((e) => e.name === resolved.provider),
    deployment: context.routing,
    defaults: context.routingDefaults,
  });
  for (const w of routing.warnings) Warnings.add(scope, w);
  if (routing.errors.length > 0) return { errors: routing.errors, objects: [] };

  const view = toResolvedDeployment(resolved);
  // A target that places its pods elsewhere (modelplane's fleet) needs neither our claim
  // templates nor a check against this cluster's node pools.
  const targetSchedules = provider.schedulesDevicesItself(view);
  const capacityErrors = insufficientCapacityErrors(resolved, targetSchedules ? [] : context.nodePools);
  if (capacityErrors.length > 0) return { errors: capacityErrors, objects: [] };

  const objects = provider.translate(scope, view);
  const modelServerPods = provider.inferencePoolTarget(view);
  if (!targetSchedules) objects.push(...addDeviceClaimTemplates(scope, resolved));
  objects.push(...addAutoscalerFor(scope, resolved, provider));
  if (routing.plan) objects.push(...addModelRouting(scope, routing.plan));
  const nameErrors = checkDerivedObjectNames(resolved.name, objects.map((o) => ({ kind: o.kind, name: o.name })));
  if (nameErrors.length > 0) {
    for (const o of objects) removeFromScope(scope, o);
    return { errors: nameErrors, objects: [] };
  }
  // Legal but surprising in production: a moving image the author chose, a single-node claim shared by several pods.
  for (const w of movingImageTagWarnings(resolved.spec, resolved.annotations)) Warnings.add(scope, w);
  for (const w of singleNodeVolumeWarnings(resolved, objects)) Warnings.add(scope, w);
  if (routing.plan) attachToGateway(scope, routing.plan);
  return { errors: [], objects, resolved, provider, view, modelServerPods };
}

/**
 * Removes `object` from the tree under `scope`: the child of `scope` that holds it, which is the
 * object itself or the L2 construct wrapping it (`<deployment>/ModelServer/Resource`).
 */
function removeFromScope(scope: IConstruct, object: IConstruct): void {
  let child = object;
  while (child.node.scope && child.node.scope !== scope) child = child.node.scope;
  if (child.node.scope === scope) scope.node.tryRemoveChild(child.node.id);
}
