import type { ApiObject } from 'cdk8s';
import type { Construct } from 'constructs';
import { DROPPED_VLLM_ARG } from './args';
import { buildDynamoGraph, DynamoGraph, dynamoLabels } from './graph';
import { dynamoImages, DYNAMO_VERSION, hasSemverTag } from './images';
import { applyDgdOverrides, DynamoTypedOverrides, parseTypedOverrides } from './overrides';
import { isV1Beta1Runtime, parseRuntimeVersion } from './runtime-version';
import { gatewayEnabled, isMocker } from './services';
import { v1alpha1Spec } from './v1alpha1';
import { v1beta1Spec } from './v1beta1';
import { DYNAMO_DISPLAY_NAME, dynamoApiVersionOf, dynamoRuntimeOf, DynamoSettings, shapeOf } from './validation';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { Warnings } from '../../api/warnings';
import { DynamoGraphDeployment, DynamoGraphDeploymentV1Beta1 } from '../../imports/nvidia.com';
import { isJsonObject } from '../../provider-kit/unstructured';
import { addManagedClaims } from '../../storage/managed-claim';
import { addModelDownloadJob, DEFAULT_MODEL_DOWNLOAD_IMAGE } from '../../storage/model-download-job';

function warnAboutIgnoredSettings(
  dgd: ApiObject,
  md: ResolvedModelDeployment,
  graph: DynamoGraph,
  typed: DynamoTypedOverrides,
  dynamoVersion: string,
): void {
  const engine = md.spec.engine ?? {};
  if ((engine.extraArgs?.length ?? 0) > 0) {
    Warnings.add(dgd, `${DYNAMO_DISPLAY_NAME} ignores spec.engine.extraArgs (as AI Runway does); set worker flags in spec.engine.args`);
  }
  if (md.engine === 'vllm' && !isMocker(md) && engine.args && DROPPED_VLLM_ARG in engine.args) {
    Warnings.add(dgd, `${DYNAMO_DISPLAY_NAME} drops spec.engine.args.${DROPPED_VLLM_ARG} for vLLM workers: the KV connector is Dynamo's (NIXL when disaggregated)`);
  }
  const gateway = gatewayEnabled(md);
  const frontendTyped = [typed.routerMode, typed.frontendReplicas, typed.frontendCpu, typed.frontendMemory];
  if (gateway && frontendTyped.some((v) => v !== undefined)) {
    Warnings.add(dgd, 'overrides routerMode and frontend.* configure the Frontend service, which a deployment with the gateway enabled does not have (its workers carry frontend sidecars)');
  }
  if (!gateway && (typed.eppReplicas !== undefined || typed.eppImage !== undefined)) {
    Warnings.add(dgd, 'overrides epp.* configure the Epp service, which a deployment without the gateway does not have');
  }
  const overridesText = JSON.stringify(md.spec.provider?.overrides ?? {});
  const runtime = parseRuntimeVersion(dynamoVersion);
  // Below 1.5 the operator reads no runtime version from the tag: nothing to warn about.
  if (!overridesText.includes('"runtimeVersionOverride"') && (runtime === undefined || isV1Beta1Runtime(runtime))) {
    // The graph sets the override from the runtime version; without one, nothing can.
    for (const c of graph.components) {
      if (!hasSemverTag(c.image) && c.runtimeVersionOverride === undefined) {
        Warnings.add(dgd, `image ${JSON.stringify(c.image)} of service ${c.name} has no semantic-version tag, nor has dynamoVersion ` +
          `${JSON.stringify(dynamoVersion)}; Dynamo 1.5+ admission then requires runtimeVersionOverride (set it through spec.provider.overrides)`);
      }
    }
  }
}

/**
 * Creates the Dynamo objects under `scope` and returns them, DynamoGraphDeployment first:
 *
 * - the DynamoGraphDeployment (child `DynamoGraphDeployment`) in the version chosen by
 *   `dynamoApiVersionOf`, named and namespaced like the deployment, labelled managed-by,
 *   model-deployment, model-id and engine-type; `spec.provider.overrides` deep-merged into its
 *   final JSON (typed keys excluded, `null` removes);
 * - one PVC per managed storage volume and the model download Job when the first modelCache
 *   volume is writable and the model comes from Hugging Face. AI Runway's controller creates
 *   these imperatively and waits for them before creating the DynamoGraphDeployment; at build
 *   time they are plain objects applied together with it (the workers mount the same claim, and
 *   the Hugging Face cache tolerates a concurrent download).
 *
 * No ownerReferences: the ModelDeployment's uid is unknown at build time; the labels tie the
 * objects to it.
 */
export function translateDynamo(scope: Construct, md: ResolvedModelDeployment, settings: DynamoSettings = {}): ApiObject[] {
  const shape = shapeOf(dynamoApiVersionOf(md, settings));
  const overrides = md.spec.provider?.overrides;
  const { typed } = parseTypedOverrides(overrides);
  const dynamoVersion = settings.dynamoVersion ?? DYNAMO_VERSION;
  const runtime = dynamoRuntimeOf(settings);
  const graph = buildDynamoGraph(md, { images: dynamoImages(dynamoVersion), overrides: typed, dynamoVersion, ...(runtime && { runtime }) });
  const labels = dynamoLabels(md);
  const metadata = { name: md.name, ...(md.namespace !== undefined && { namespace: md.namespace }), labels };
  const dgd: ApiObject = shape === 'v1beta1'
    ? new DynamoGraphDeploymentV1Beta1(scope, 'DynamoGraphDeployment', { metadata, spec: v1beta1Spec(graph) })
    : new DynamoGraphDeployment(scope, 'DynamoGraphDeployment', { metadata, spec: v1alpha1Spec(graph) });
  if (isJsonObject(overrides)) applyDgdOverrides(dgd, overrides, shape);
  warnAboutIgnoredSettings(dgd, md, graph, typed, dynamoVersion);

  const objects: ApiObject[] = [dgd, ...addManagedClaims(scope, md, labels)];
  const job = addModelDownloadJob(scope, md, {
    image: settings.modelDownloadImage ?? DEFAULT_MODEL_DOWNLOAD_IMAGE,
    ...(settings.modelDownloadJobTtlSeconds !== undefined && { ttlSecondsAfterFinished: settings.modelDownloadJobTtlSeconds }),
    extraLabels: labels,
  });
  if (job) objects.push(job);
  return objects;
}
