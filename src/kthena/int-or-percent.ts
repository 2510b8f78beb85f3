import { FieldError, invalid } from '../core/field-error';

/**
 * A count or a percentage, for Kthena's rollout fields (`maxUnavailable`, `partition`), which
 * take either an absolute number (`2`) or a percentage of the replicas (`"25%"`).
 */
export class KthenaIntOrPercent {
  /**
   * An absolute number.
   * @param value a whole number, at least 0
   */
  public static count(value: number): KthenaIntOrPercent {
    return new KthenaIntOrPercent(value, undefined);
  }

  /**
   * A percentage of the replicas it applies to.
   * @param value a whole number from 0 to 100
   */
  public static percent(value: number): KthenaIntOrPercent {
    return new KthenaIntOrPercent(undefined, value);
  }

  private readonly countValue?: number;
  private readonly percentValue?: number;

  private constructor(countValue: number | undefined, percentValue: number | undefined) {
    this.countValue = countValue;
    this.percentValue = percentValue;
  }

  /** The value as written in the YAML: a number, or a string ending in `%`. */
  public toString(): string {
    return this.percentValue !== undefined ? `${this.percentValue}%` : String(this.countValue);
  }

  /** The value in its JSON form. @internal */
  public _toJson(): any {
    return this.percentValue !== undefined ? `${this.percentValue}%` : this.countValue;
  }

  /**
   * What Kthena's webhook refuses: a negative or fractional count, a percentage that is not a
   * whole number from 0 to 100.
   * @internal
   */
  public _errors(path: string): FieldError[] {
    if (this.percentValue !== undefined) {
      const p = this.percentValue;
      return Number.isInteger(p) && p >= 0 && p <= 100 ? [] : [invalid(path, this.toString(), 'must be a whole percentage from 0% to 100%')];
    }
    const n = this.countValue!;
    return Number.isInteger(n) && n >= 0 ? [] : [invalid(path, n, 'must be a whole number of at least 0')];
  }

  /**
   * The absolute value against `total` replicas, a percentage rounded down (how Kthena scales
   * `maxUnavailable`).
   * @internal
   */
  public _scaledDown(total: number): number {
    return this.percentValue !== undefined ? Math.floor((this.percentValue * total) / 100) : this.countValue!;
  }
}
