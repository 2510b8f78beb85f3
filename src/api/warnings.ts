import { IConstruct } from 'constructs';

/** Construct metadata type under which cdk8s-inference records warnings. */
const WARNING_METADATA_TYPE = 'cdk8s-inference:warning';

/** A warning whose text is decided when warnings are collected. */
class DeferredWarning {
  public constructor(public readonly produce: () => string | undefined) {}
}

/**
 * A warning recorded on a construct: something legal but probably unintended, such as
 * `trustRemoteCode`. (cdk8s has no Annotations API; warnings are construct metadata entries.)
 */
export interface Warning {
  /** Path of the construct the warning is about. */
  readonly path: string;
  /** The warning text. */
  readonly message: string;
}

/**
 * Records and collects warnings of cdk8s-inference constructs.
 */
export class Warnings {
  /**
   * Records a warning on `scope`.
   */
  public static add(scope: IConstruct, message: string): void {
    scope.node.addMetadata(WARNING_METADATA_TYPE, message);
  }

  /**
   * Records on `scope` a warning decided when the warnings are collected: `produce` returns its
   * text, or undefined when it no longer applies. For a warning that depends on constructs added
   * later (a BodyBasedRouter created after the deployments that need one).
   * @internal
   */
  public static _addDeferred(scope: IConstruct, produce: () => string | undefined): void {
    scope.node.addMetadata(WARNING_METADATA_TYPE, new DeferredWarning(produce));
  }

  /**
   * Every warning recorded on `scope` and its descendants, in tree order.
   */
  public static collect(scope: IConstruct): Warning[] {
    const out: Warning[] = [];
    for (const c of scope.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type !== WARNING_METADATA_TYPE) continue;
        const message = entry.data instanceof DeferredWarning ? entry.data.produce() : String(entry.data);
        if (message !== undefined) out.push({ path: c.node.path, message });
      }
    }
    return out;
  }

  private constructor() {}
}
