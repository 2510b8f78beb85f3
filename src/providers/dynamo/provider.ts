import type { ApiObject, Duration } from 'cdk8s';
import type { Construct } from 'constructs';
import { dynamoProviderConfig } from './config';
import { isMocker } from './services';
import { reconcileDynamoGraphDeploymentStatus } from './status';
import {
  DYNAMO_API_VERSION_ANNOTATION,
  DYNAMO_DISPLAY_NAME,
  dynamoApiVersionOf,
  DynamoSettings,
  dynamoSettingsErrors,
  dynamoWarnings,
  validateDynamo,
} from './validation';
import { EngineType } from '../../api/engine';
import { DeploymentFeature } from '../../api/provider/deployment-feature';
import { InferenceProvider, SimulatedBackend } from '../../api/provider/inference-provider';
import { InferenceProviderConfig } from '../../api/provider/inference-provider-config';
import type { ProviderStatusReport, UpstreamKind, UpstreamObjectRef } from '../../api/provider/provider-status';
import type { DeploymentDescription, ResolvedDeployment } from '../../api/resolved-deployment';
import { fromResolvedDeployment } from '../../api/resolved-model-deployment';
import { ServingMode } from '../../api/serving';
import { FieldError, formatFieldError } from '../../core/field-error';
import { JOB_KIND, PERSISTENT_VOLUME_CLAIM_KIND } from '../../provider-kit/kinds';
import { toStatusReport } from '../../provider-kit/reconciled-status';

/**
 * DynamoGraphDeployment API versions the Dynamo provider can emit.
 */
export enum DynamoApiVersion {
  /** The graphs of Dynamo before 1.5 (`spec.services` map); still served by Dynamo, deprecated. */
  V1ALPHA1 = 'nvidia.com/v1alpha1',
  /** Dynamo's storage version since 1.5 (`spec.components` list); needs a runtime of 1.5.0 or later. */
  V1BETA1 = 'nvidia.com/v1beta1',
}

/**
 * Settings of the Dynamo provider.
 */
export interface DynamoProviderProps {
  /**
   * DynamoGraphDeployment version for every deployment; one deployment may choose its own with
   * the annotation `inference.cdk8s.io/dynamo-api-version`. V1BETA1 needs a runtime
   * (`dynamoVersion`) of 1.5.0 or later; V1ALPHA1 is for clusters on Dynamo before 1.5.
   * @default - V1BETA1 when `dynamoVersion` is 1.5.0 or later (or no version), V1ALPHA1 below
   */
  readonly apiVersion?: DynamoApiVersion;

  /**
   * Tag of the default NVIDIA Dynamo images (vLLM/SGLang/TensorRT-LLM runtimes, frontend,
   * mocker), and, when it is a semantic version, the runtime the graphs are rendered for: below
   * 1.5.0 they are v1alpha1 by default and the endpoint picker gets `eppConfig` (the Go picker);
   * it is also the `runtimeVersionOverride` of a component whose image tag is no version.
   * @default '1.6.1'
   */
  readonly dynamoVersion?: string;

  /**
   * Image of the model download Job that fills a managed model cache.
   * @default 'ghcr.io/ai-runway/airunway/model-downloader:0.3.0' (AI Runway's downloader, pinned to a release)
   */
  readonly modelDownloadImage?: string;

  /**
   * How long a finished model download Job is kept before Kubernetes deletes it
   * (`ttlSecondsAfterFinished`, whole seconds, at least zero).
   * @default Duration.days(1)
   */
  readonly modelDownloadJobTtl?: Duration;
}

/**
 * NVIDIA Dynamo (`dynamo`): one DynamoGraphDeployment (frontend, workers, prefill/decode workers
 * over NIXL), plus managed PVCs and the model download Job. Dynamo manages its own InferencePool.
 * The annotation `airunway.ai/dynamo-test-backend: mocker` runs Dynamo's GPU-less mocker.
 */
export class DynamoProvider extends InferenceProvider {
  private readonly settings: DynamoSettings;

  public constructor(props: DynamoProviderProps = {}) {
    super({ config: InferenceProviderConfig._fromEntry(dynamoProviderConfig()), displayName: DYNAMO_DISPLAY_NAME });
    this.settings = {
      apiVersion: props.apiVersion,
      dynamoVersion: props.dynamoVersion,
      modelDownloadImage: props.modelDownloadImage,
      modelDownloadJobTtlSeconds: props.modelDownloadJobTtl?.toSeconds(),
    };
    const errors = dynamoSettingsErrors(this.settings);
    if (errors.length > 0) throw new Error(`invalid DynamoProvider props:\n${errors.map(formatFieldError).join('\n')}`);
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    return validateDynamo(fromResolvedDeployment(deployment), this.settings);
  }

  /** GPUs a worker's engine layout leaves idle (`dynamoParallelism`). */
  public warnings(deployment: ResolvedDeployment): string[] {
    return dynamoWarnings(fromResolvedDeployment(deployment));
  }

  /**
   * Its worker pods carry the claims: v1alpha1 `extraPodSpec.resourceClaims` and
   * `mainContainer.resources.claims`, v1beta1 the component's pod template; frontends claim
   * nothing. Not with the mocker backend, whose workers use no GPUs.
   */
  /**
   * Scale to zero: a worker's `replicas: 0` (aggregated; disaggregated components keep theirs, 0
   * included). Multi-node replicas in both modes: a worker that spans nodes gets Dynamo's
   * `multinode.nodeCount` (`./multi-node`); not with the mocker, which runs no engine to span them.
   */
  public supportsFeature(feature: DeploymentFeature, deployment: ResolvedDeployment): boolean {
    switch (feature) {
      case DeploymentFeature.SCALE_TO_ZERO:
        return deployment.servingMode === ServingMode.AGGREGATED;
      case DeploymentFeature.MULTI_NODE:
        return !isMocker(fromResolvedDeployment(deployment));
      default:
        return false;
    }
  }

  public supportsDeviceClaims(deployment: ResolvedDeployment): boolean {
    // The mocker simulates workers without GPUs: it has nothing to claim devices for.
    return !isMocker(fromResolvedDeployment(deployment));
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    // Loaded on first use: the translator brings cdk8s-plus-34 and the generated bindings, which
    // the controller (validate and mapStatus only) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { translateDynamo } = require('./translator') as typeof import('./translator');
    return translateDynamo(scope, fromResolvedDeployment(deployment), this.settings);
  }

  /** Both DynamoGraphDeployment versions: a deployment may pick the other one by annotation. */
  public emittedKinds(): UpstreamKind[] {
    return [
      ...Object.values(DynamoApiVersion).map((apiVersion) => ({ apiVersion, kind: 'DynamoGraphDeployment', resource: 'dynamographdeployments' })),
      PERSISTENT_VOLUME_CLAIM_KIND,
      JOB_KIND,
    ];
  }

  /**
   * The DynamoGraphDeployment version, when these settings chose it (`apiVersion`) or chose one
   * other than the default settings would (an older `dynamoVersion`) and the deployment did not:
   * the controller, which runs with the default settings, then reads the version the synth wrote.
   */
  public recordAnnotations(deployment: ResolvedDeployment): { [key: string]: string } {
    if (DYNAMO_API_VERSION_ANNOTATION in deployment.annotations) return {};
    const md = fromResolvedDeployment(deployment);
    const chosen = dynamoApiVersionOf(md, this.settings);
    if (this.settings.apiVersion === undefined && chosen === dynamoApiVersionOf(md)) return {};
    return { [DYNAMO_API_VERSION_ANNOTATION]: chosen };
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: dynamoApiVersionOf(fromResolvedDeployment(deployment), this.settings), kind: 'DynamoGraphDeployment', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    return toStatusReport(reconcileDynamoGraphDeploymentStatus(upstream));
  }

  /** Dynamo's mocker fakes vLLM without GPUs. */
  public simulatedBackend(deployment: DeploymentDescription): SimulatedBackend | undefined {
    return isMocker(deployment) ? { name: 'mocker', engines: [EngineType.VLLM] } : undefined;
  }
}
