import { Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { KthenaWorkerType } from './booster-types';
import type { KthenaModelBoosterProps } from './model-booster-props';
import { modelBoosterErrors } from './model-booster-rules';
import { modelMatchJson } from './model-match-json';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, formatFieldError } from '../core/field-error';
import { k8s } from '../core/kube-api';
import {
  ModelBooster,
  ModelBoosterSpec,
  ModelBoosterSpecBackendType,
  ModelBoosterSpecBackendWorkersType,
} from '../imports/workload.serving.volcano.sh';

const KTHENA_MODEL_BOOSTER_BRAND = brandSymbol('KthenaModelBooster');

/**
 * A Kthena ModelBooster (`workload.serving.volcano.sh/v1alpha1`), one to one: Kthena's controller
 * turns it into a ModelServing, a ModelServer and a ModelRoute, with a downloader init container
 * and its runtime sidecar. The children and their selectors exist only once the booster does (they
 * select by its UID), so prefer `KthenaModelServing` and friends when the pods need to be known at
 * build time.
 *
 * Checked at synth: the CRD's patterns and ranges, the webhook's worker rules (vLLM: one `server`;
 * vLLMDisaggregated: one `prefill` and one `decode`), one engine port, the `pvc://` rules, the KV
 * transfer settings of prefill and decode, images, and the pod names Kthena will derive.
 */
export class KthenaModelBooster extends Construct {
  /** True if `x` is a KthenaModelBooster (also one made by another copy of this library). */
  public static isKthenaModelBooster(x: any): x is KthenaModelBooster {
    return hasBrand(x, KTHENA_MODEL_BOOSTER_BRAND);
  }

  /** The generated ModelBooster (escape hatch: `addJsonPatch`). */
  public readonly apiObject: ModelBooster;

  /** Name of the ModelBooster. */
  public readonly name: string;

  private readonly props: KthenaModelBoosterProps;

  public constructor(scope: Construct, id: string, props: KthenaModelBoosterProps) {
    super(scope, id);
    addBrand(this, KTHENA_MODEL_BOOSTER_BRAND);
    this.props = props;
    this.apiObject = new ModelBooster(this, 'Resource', {
      metadata: props.metadata,
      spec: Lazy.any({ produce: () => this._render().spec }),
    });
    this.name = this.apiObject.name;
    this.node.addValidation({ validate: () => this._render().errors.map(formatFieldError) });
  }

  /**
   * Name of the ModelServing (and ModelServer) Kthena creates for the booster,
   * `<booster>-<backend>`: e.g. the target of a `KthenaAutoscalingPolicy`, through
   * `KthenaModelServing.fromModelServingName()`.
   */
  public get modelServingName(): string {
    return `${this.name}-${this.props.backend.name}`;
  }

  /** The spec in the L1's shape and every problem with it. @internal */
  public _render(): { spec: ModelBoosterSpec; errors: FieldError[] } {
    const p = this.props;
    const b = p.backend;
    const errors = modelBoosterErrors(this.name, p);
    const match = modelMatchJson(p.modelMatch);
    const spec: ModelBoosterSpec = {
      ...(p.servedModelName !== undefined && { name: p.servedModelName }),
      ...(p.owner !== undefined && { owner: p.owner }),
      backend: {
        name: b.name,
        type: b.backendType as string as ModelBoosterSpecBackendType,
        modelUri: b.modelUri,
        cacheUri: b.cacheUri,
        replicas: b.replicas ?? 1,
        ...(b.env && b.env.length > 0 && { env: b.env.map((e) => k8s.toJson_EnvVar(e)) }),
        ...(b.envFrom && b.envFrom.length > 0 && { envFrom: b.envFrom.map((e) => k8s.toJson_EnvFromSource(e)) }),
        ...(b.schedulerName !== undefined && { schedulerName: b.schedulerName }),
        ...(b.runtimeClassName !== undefined && { runtimeClassName: b.runtimeClassName }),
        workers: b.workers.map((w) => ({
          type: (w.workerType ?? KthenaWorkerType.SERVER) as string as ModelBoosterSpecBackendWorkersType,
          ...(w.image !== undefined && { image: w.image }),
          replicas: w.replicas ?? 1,
          ...(w.pods !== undefined && { pods: w.pods }),
          ...(w.resources && { resources: k8s.toJson_ResourceRequirements(w.resources) }),
          ...(w.affinity && { affinity: k8s.toJson_Affinity(w.affinity) }),
          ...(w.tolerations && w.tolerations.length > 0 && { tolerations: w.tolerations.map((t) => k8s.toJson_Toleration(t)) }),
          ...(w.config && Object.keys(w.config).length > 0 && { config: { ...w.config } }),
        })),
      },
      ...(match && { modelMatch: match }),
    };
    return { spec, errors };
  }
}
