import { IConstruct } from 'constructs';

/** Construct metadata type under which cdk8s-inference records warnings. */
const WARNING_METADATA_TYPE = 'cdk8s-inference:warning';

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
   * Every warning recorded on `scope` and its descendants, in tree order.
   */
  public static collect(scope: IConstruct): Warning[] {
    const out: Warning[] = [];
    for (const c of scope.node.findAll()) {
      for (const entry of c.node.metadata) {
        if (entry.type === WARNING_METADATA_TYPE) out.push({ path: c.node.path, message: String(entry.data) });
      }
    }
    return out;
  }

  private constructor() {}
}
