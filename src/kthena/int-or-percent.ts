import { intOrPercentErrors, scaledDown } from './int-or-percent-value';
import type { FieldError } from '../core/field-error';

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
   * What Kthena's webhook refuses (`readIntOrPercent`): a negative or fractional count, a
   * percentage that is not a whole number from 0 to 100.
   * @internal
   */
  public _errors(path: string): FieldError[] {
    return intOrPercentErrors(path, this._toJson());
  }

  /**
   * The absolute value against `total` replicas, a percentage rounded down (how Kthena scales
   * `maxUnavailable`).
   * @internal
   */
  public _scaledDown(total: number): number {
    const percent = this.percentValue !== undefined;
    return scaledDown({ value: percent ? this.percentValue! : this.countValue!, percent }, total);
  }
}
