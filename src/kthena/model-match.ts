/**
 * How a string of a request is matched (Kthena's `StringMatch`: exactly one of exact, prefix and
 * regex, which the factories guarantee).
 */
export class KthenaStringMatch {
  /** The whole string equals `value`. */
  public static exact(value: string): KthenaStringMatch {
    return new KthenaStringMatch({ exact: value });
  }

  /** The string starts with `value`. */
  public static prefix(value: string): KthenaStringMatch {
    return new KthenaStringMatch({ prefix: value });
  }

  /** The string matches the regular expression `value` (Go RE2 syntax). */
  public static regex(value: string): KthenaStringMatch {
    return new KthenaStringMatch({ regex: value });
  }

  private readonly json: { exact?: string; prefix?: string; regex?: string };

  private constructor(json: { exact?: string; prefix?: string; regex?: string }) {
    this.json = json;
  }

  /** The match in JSON form. @internal */
  public _toJson(): { exact?: string; prefix?: string; regex?: string } {
    return { ...this.json };
  }
}

/**
 * Which requests a ModelRoute rule (or a ModelBooster's route) takes; all given conditions must
 * hold.
 */
export interface KthenaModelMatch {
  /**
   * The request body's `model`: a base model, a LoRA adapter or a virtual model name.
   * @default - any model
   */
  readonly model?: string;

  /**
   * Request headers, by header name.
   * @default - any headers
   */
  readonly headers?: { [header: string]: KthenaStringMatch };

  /**
   * The request path.
   * @default - any path (a prefix match on `/`)
   */
  readonly uri?: KthenaStringMatch;
}
