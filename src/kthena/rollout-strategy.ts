import { KthenaIntOrPercent } from './int-or-percent';
import { RolloutType } from './rollout-type';

/** How a ServingGroup-by-ServingGroup rolling update proceeds. */
export interface KthenaServingGroupRollingUpdateOptions {
  /**
   * ServingGroups that may be unavailable during the update: a count, or a percentage of
   * `replicas` rounded down. Must not come to 0.
   * @default KthenaIntOrPercent.count(1)
   */
  readonly maxUnavailable?: KthenaIntOrPercent;

  /**
   * ServingGroups kept at the old revision, counted from the lowest index (a staged rollout):
   * a count, or a percentage of `replicas` rounded up.
   * @default - 0: every group is updated
   */
  readonly partition?: KthenaIntOrPercent;
}

/**
 * How a ModelServing rolls out a new pod template (`spec.rolloutStrategy`).
 */
export class KthenaRolloutStrategy {
  /**
   * Replace whole ServingGroups, a few at a time (Kthena's default).
   */
  public static servingGroupRollingUpdate(options: KthenaServingGroupRollingUpdateOptions = {}): KthenaRolloutStrategy {
    return new KthenaRolloutStrategy(RolloutType.SERVING_GROUP_ROLLING_UPDATE, options);
  }

  /**
   * Replace role instances inside every ServingGroup at once, each role by its own
   * `maxUnavailable` and `partition` (see `KthenaRoleOptions`). Kthena recommends it only with a
   * single ServingGroup, and refuses it with `KthenaRecoveryPolicy.SERVING_GROUP_RECREATE`.
   */
  public static roleRollingUpdate(): KthenaRolloutStrategy {
    return new KthenaRolloutStrategy(RolloutType.ROLE_ROLLING_UPDATE, {});
  }

  /** The strategy's `type` as Kthena names it. */
  public readonly strategyType: string;

  /** @internal */
  public readonly _options: KthenaServingGroupRollingUpdateOptions;

  private constructor(strategyType: RolloutType, options: KthenaServingGroupRollingUpdateOptions) {
    this.strategyType = strategyType;
    this._options = options;
  }

  /** Whether roles roll one by one (and carry their own rollout settings). */
  public get isRoleRollingUpdate(): boolean {
    return this.strategyType === RolloutType.ROLE_ROLLING_UPDATE;
  }
}

