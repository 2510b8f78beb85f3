import { Construct } from 'constructs';
import { KthenaIntOrPercent } from './int-or-percent';
import { KthenaPodLabels } from './labels';
import { addModelServingObject } from './model-serving-object';
import type { IKthenaModelServing, KthenaModelServingProps, KthenaRoleOptions } from './model-serving-props';
import { modelServingErrors, ServingRoleInput } from './model-serving-rules';
import { KthenaPodTemplate } from './pod-template';
import { Warnings } from '../api/warnings';
import { addBrand, brandSymbol, hasBrand } from '../core/construct-brand';
import { FieldError, fieldPath, formatFieldError } from '../core/field-error';
import {
  ModelServing,
  ModelServingSpec,
  ModelServingSpecRecoveryPolicy,
  ModelServingSpecRolloutStrategyRollingUpdateConfigurationMaxUnavailable,
  ModelServingSpecRolloutStrategyRollingUpdateConfigurationPartition,
  ModelServingSpecRolloutStrategyType,
  ModelServingSpecTemplateRoles,
  ModelServingSpecTemplateRolesMaxUnavailable,
  ModelServingSpecTemplateRolesPartition,
} from '../imports/workload.serving.volcano.sh';


const SERVING_SYMBOL = brandSymbol('KthenaModelServing');

/** A ModelServing known only by name. */
class ImportedModelServing extends Construct implements IKthenaModelServing {
  public constructor(scope: Construct, id: string, public readonly name: string) {
    super(scope, id);
  }
}

/**
 * A Kthena ModelServing (`workload.serving.volcano.sh/v1alpha1`): `replicas` ServingGroups, each
 * the same set of roles (e.g. `prefill` and `decode`), each role instance an entry pod plus
 * optional worker pods, gang-scheduled by Volcano.
 *
 * Every pod template gets the labels of `KthenaPodLabels` (the ModelServing, the role, and on
 * entry pods the entry marker), by which `KthenaModelServer.selectServing()` selects the pods.
 * The spec is rendered at synth, so roles and containers added after construction are part of
 * it; Kthena's CRD rules and webhook checks are run then and reported with their field paths.
 */
export class KthenaModelServing extends Construct implements IKthenaModelServing {
  /**
   * A ModelServing that exists elsewhere, by name (e.g. as an autoscaling target).
   */
  public static fromModelServingName(scope: Construct, id: string, name: string): IKthenaModelServing {
    return new ImportedModelServing(scope, id, name);
  }

  /** Whether `x` is a `KthenaModelServing` (also across copies of this library). */
  public static isKthenaModelServing(x: any): x is KthenaModelServing {
    return hasBrand(x, SERVING_SYMBOL);
  }

  /** The generated ModelServing (escape hatch: `addJsonPatch`). */
  public readonly apiObject: ModelServing;

  /** Name of the ModelServing. */
  public readonly name: string;

  private readonly props: KthenaModelServingProps;
  private readonly roles: KthenaRoleOptions[];
  private readonly recordedWarnings = new Set<string>();

  public constructor(scope: Construct, id: string, props: KthenaModelServingProps = {}) {
    super(scope, id);
    addBrand(this, SERVING_SYMBOL);
    this.props = props;
    this.roles = [...(props.roles ?? [])];
    this.apiObject = addModelServingObject(this, 'Resource', props.metadata, () => this._render().spec);
    this.name = this.apiObject.name;
    this.node.addValidation({
      validate: () => {
        const rendered = this._render();
        this.recordWarnings(rendered.warnings);
        return rendered.errors.map(formatFieldError);
      },
    });
  }

  /** Adds a role to the ServingGroup template. */
  public addRole(role: KthenaRoleOptions): void {
    this.roles.push(role);
  }

  /** Names of the roles, in order. */
  public get roleNames(): string[] {
    return this.roles.map((r) => r.name);
  }

  /** Whether a role of this name exists. */
  public hasRole(name: string): boolean {
    return this.roles.some((r) => r.name === name);
  }

  /**
   * Labels of the pods that serve requests: the entry pods of every role, or of one role. A
   * Service or a ModelServer selecting by them reaches only this ModelServing's servers.
   * @param role a role name
   * @default - the entry pods of every role
   */
  public entryPodLabels(role?: string): { [key: string]: string } {
    return {
      [KthenaPodLabels.MODEL_SERVING]: this.name,
      [KthenaPodLabels.ENTRY]: 'true',
      ...(role !== undefined && { [KthenaPodLabels.ROLE]: role }),
    };
  }

  /**
   * Doubts about the ModelServing that are no errors (e.g. containers left with cdk8s-plus's
   * small default resources). They are also recorded as cdk8s-inference warnings at synth.
   */
  public get warnings(): string[] {
    return this._render().warnings;
  }

  /**
   * The spec in the L1's shape, every problem with it, and the doubts worth a warning.
   * @internal
   */
  public _render(): { spec: ModelServingSpec; errors: FieldError[]; warnings: string[] } {
    const p = this.props;
    const errors: FieldError[] = [];
    const defaultResources: string[] = [];
    const replicas = p.replicas ?? 1;
    const rendered: Array<ReturnType<KthenaPodTemplate['_render']>> = [];
    const inputs: ServingRoleInput[] = [];
    const roles: ModelServingSpecTemplateRoles[] = this.roles.map((role, i) => {
      const path = fieldPath('spec.template.roles', i);
      const entry = role.entryTemplate._render(`${path}.entryTemplate`, this.podLabels(role.name, true));
      const worker = role.workerTemplate?._render(`${path}.workerTemplate`, this.podLabels(role.name, false));
      rendered.push(entry, ...(worker ? [worker] : []));
      inputs.push({ options: role, path });
      return {
        name: role.name,
        replicas: role.replicas ?? 1,
        workerReplicas: role.workerReplicas ?? 0,
        entryTemplate: entry.template,
        ...(worker && { workerTemplate: worker.template }),
        ...(role.maxUnavailable && { maxUnavailable: intOrString(role.maxUnavailable, ModelServingSpecTemplateRolesMaxUnavailable) }),
        ...(role.partition && { partition: intOrString(role.partition, ModelServingSpecTemplateRolesPartition) }),
      };
    });
    for (const r of rendered) {
      errors.push(...r.errors);
      defaultResources.push(...r.defaultResources);
    }
    errors.push(...modelServingErrors({
      name: this.name,
      replicas,
      roles: inputs,
      gangPolicy: p.gangPolicy,
      rolloutStrategy: p.rolloutStrategy,
      recoveryPolicy: p.recoveryPolicy,
      restartGracePeriod: p.restartGracePeriod,
    }));

    const rollout = p.rolloutStrategy;
    const rolloutOptions = rollout?._options ?? {};
    const hasRollingConfig = rolloutOptions.maxUnavailable !== undefined || rolloutOptions.partition !== undefined;
    const spec: ModelServingSpec = {
      replicas,
      ...(p.schedulerName !== undefined && { schedulerName: p.schedulerName }),
      ...(p.recoveryPolicy !== undefined && { recoveryPolicy: p.recoveryPolicy as string as ModelServingSpecRecoveryPolicy }),
      ...(rollout && {
        rolloutStrategy: {
          type: rollout.strategyType as ModelServingSpecRolloutStrategyType,
          ...(hasRollingConfig && {
            rollingUpdateConfiguration: {
              ...(rolloutOptions.maxUnavailable && {
                maxUnavailable: intOrString(rolloutOptions.maxUnavailable, ModelServingSpecRolloutStrategyRollingUpdateConfigurationMaxUnavailable),
              }),
              ...(rolloutOptions.partition && {
                partition: intOrString(rolloutOptions.partition, ModelServingSpecRolloutStrategyRollingUpdateConfigurationPartition),
              }),
            },
          }),
        },
      }),
      template: {
        ...(p.restartGracePeriod !== undefined && { restartGracePeriodSeconds: Math.round(p.restartGracePeriod.toSeconds({ integral: false })) }),
        ...(p.gangPolicy !== undefined && {
          gangPolicy: p.gangPolicy.minRoleReplicas !== undefined ? { minRoleReplicas: { ...p.gangPolicy.minRoleReplicas } } : {},
        }),
        roles,
      },
    };
    const warnings = defaultResources.map((path) =>
      `${path} sets no resources, so cdk8s-plus's defaults apply (requests 1 CPU and 512Mi, limits 1.5 CPU and 2048Mi of memory), ` +
      'far below what an inference engine needs; set resources (and extendedResources for GPUs)');
    return { spec, errors, warnings };
  }

  /** The labels this construct writes into the pod templates of `role`. */
  private podLabels(role: string, entry: boolean): { [key: string]: string } {
    return {
      [KthenaPodLabels.MODEL_SERVING]: this.name,
      [KthenaPodLabels.ROLE]: role,
      ...(entry && { [KthenaPodLabels.ENTRY]: 'true' }),
    };
  }

  /** Records each warning once, however often the app validates. */
  private recordWarnings(warnings: string[]): void {
    for (const w of warnings) {
      if (this.recordedWarnings.has(w)) continue;
      this.recordedWarnings.add(w);
      Warnings.add(this, w);
    }
  }
}

/** An L1 IntOrString class instance from our value. */
function intOrString<T>(value: KthenaIntOrPercent, cls: { fromNumber(n: number): T; fromString(s: string): T }): T {
  const json = value._toJson();
  return typeof json === 'number' ? cls.fromNumber(json) : cls.fromString(json);
}
