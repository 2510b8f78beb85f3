/**
 * A provider we do not ship, written against the public API only: SGLang as a plain Deployment
 * and Service, for single-GPU SGLang models that do not need Dynamo. A platform team would
 * publish this class in a construct library of its own.
 */
import { ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import {
  ConditionStatus,
  DeploymentPhase,
  DeviceClaims,
  DevicePods,
  EngineType,
  FieldError,
  FieldErrorKind,
  InferencePoolTarget,
  InferenceProvider,
  InferenceProviderConfig,
  ProviderStatusReport,
  ResolvedDeployment,
  ServingMode,
  UpstreamObjectRef,
} from '../../src';

/** Port of SGLang's OpenAI-compatible server. */
const SGLANG_PORT = 30000;

/** Settings of the provider. */
export interface SglangDeploymentProviderProps {
  /**
   * The SGLang image.
   * @default 'lmsysorg/sglang:v0.5.23'
   */
  readonly image?: string;
}

/**
 * `sglang-deployment`: SGLang's server in one Deployment with a Service in front. Selection:
 * single-GPU SGLang deployments (priority 110, above Dynamo's 100 for SGLang); anything larger
 * still goes to Dynamo.
 */
export class SglangDeploymentProvider extends InferenceProvider {
  private readonly image: string;

  public constructor(props: SglangDeploymentProviderProps = {}) {
    super({
      displayName: 'SGLang Deployment',
      config: new InferenceProviderConfig({
        name: 'sglang-deployment',
        engines: [{ engineType: EngineType.SGLANG, servingModes: [ServingMode.AGGREGATED], gpuSupport: true, requiresCrd: false }],
        selectionRules: [{ condition: "spec.engine.type == 'sglang' && has(spec.resources.gpu) && spec.resources.gpu.count == 1", priority: 110 }],
      }),
    });
    this.image = props.image ?? 'lmsysorg/sglang:v0.5.23';
  }

  public validate(deployment: ResolvedDeployment): FieldError[] {
    const errors: FieldError[] = [];
    if (deployment.engineType !== EngineType.SGLANG) {
      errors.push({ path: 'spec.engine.type', kind: FieldErrorKind.INVALID, value: deployment.engineType, message: 'sglang-deployment only runs the sglang engine' });
    }
    if (!deployment.spec.model?.id) {
      errors.push({ path: 'spec.model.id', kind: FieldErrorKind.REQUIRED, message: 'SGLang loads the model by its HuggingFace id' });
    }
    if ((deployment.spec.resources?.gpu?.count ?? 0) < 1) {
      errors.push({ path: 'spec.resources.gpu.count', kind: FieldErrorKind.REQUIRED, message: 'sglang-deployment needs at least one GPU' });
    }
    return errors;
  }

  /** The pod carries DRA device claims (`resources.gpu.devices`) in place of `nvidia.com/gpu`. */
  public supportsDeviceClaims(_deployment: ResolvedDeployment): boolean {
    return true;
  }

  public translate(scope: Construct, deployment: ResolvedDeployment): ApiObject[] {
    const { name, namespace, spec } = deployment;
    const claim = DeviceClaims.forPods(deployment, DevicePods.SERVING);
    const labels = { 'app.kubernetes.io/name': name, 'airunway.ai/model-deployment': name };
    const gpus = spec.resources.gpu.count;
    const args = ['--model-path', spec.model.id, '--host', '0.0.0.0', '--port', String(SGLANG_PORT), '--tp', String(gpus)];
    if (spec.model.servedName) args.push('--served-model-name', spec.model.servedName);
    if (spec.engine?.contextLength !== undefined) args.push('--context-length', String(spec.engine.contextLength));
    const metadata = { name, namespace, labels };
    const workload = new k8s.KubeDeployment(scope, 'Deployment', {
      metadata,
      spec: {
        replicas: Math.max(spec.scaling?.replicas ?? 1, 1),
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            containers: [{
              name: 'sglang',
              image: spec.engine?.image ?? this.image,
              command: ['python3', '-m', 'sglang.launch_server'],
              args,
              ports: [{ name: 'http', containerPort: SGLANG_PORT }],
              readinessProbe: { httpGet: { path: '/health', port: k8s.IntOrString.fromNumber(SGLANG_PORT) } },
              resources: claim
                ? { claims: [{ name: claim.claimName }] }
                : { limits: { 'nvidia.com/gpu': k8s.Quantity.fromString(String(gpus)) } },
            }],
            ...(claim && { resourceClaims: [{ name: claim.claimName, resourceClaimTemplateName: claim.templateName }] }),
          },
        },
      },
    });
    const service = new k8s.KubeService(scope, 'Service', {
      metadata,
      spec: { selector: labels, ports: [{ name: 'http', port: SGLANG_PORT, targetPort: k8s.IntOrString.fromNumber(SGLANG_PORT) }] },
    });
    return [workload, service];
  }

  public inferencePoolTarget(deployment: ResolvedDeployment): InferencePoolTarget | undefined {
    return { selector: { 'airunway.ai/model-deployment': deployment.name }, targetPort: SGLANG_PORT };
  }

  public statusSource(deployment: ResolvedDeployment): UpstreamObjectRef | undefined {
    return { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.name };
  }

  public mapStatus(upstream: any): ProviderStatusReport {
    const available = (upstream?.status?.conditions ?? []).find((c: any) => c.type === 'Available')?.status === 'True';
    const replicas = {
      desired: upstream?.spec?.replicas ?? 0,
      ready: upstream?.status?.readyReplicas ?? 0,
      available: upstream?.status?.availableReplicas ?? 0,
    };
    const endpoint = { service: upstream?.metadata?.name ?? '', port: SGLANG_PORT };
    return available
      ? { phase: DeploymentPhase.RUNNING, message: 'SGLang is serving', replicas, endpoint, ready: { type: 'Ready', status: ConditionStatus.TRUE, reason: 'DeploymentReady', message: 'All replicas are ready' } }
      : { phase: DeploymentPhase.DEPLOYING, message: 'waiting for SGLang pods', replicas, endpoint, ready: { type: 'Ready', status: ConditionStatus.FALSE, reason: 'DeploymentInProgress', message: 'Deployment is in progress' } };
  }
}
