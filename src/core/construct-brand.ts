/**
 * The `isX` checks of our constructs, as cdk8s's `Chart.isChart`: each class marks its instances
 * with a `Symbol.for` key, which is the same symbol in every copy of this package an app loads
 * (two versions under node_modules), where `instanceof` would answer false for the other copy's
 * instances.
 */

/** The symbol that marks instances of the class `className` (e.g. `ModelDeployment`). */
export function brandSymbol(className: string): symbol {
  return Symbol.for(`cdk8s-inference.${className}`);
}

/** Marks `instance` with `symbol` (not enumerable, so it never reaches JSON or jsii). */
export function addBrand(instance: object, symbol: symbol): void {
  Object.defineProperty(instance, symbol, { value: true });
}

/** True if `x` is an object marked with `symbol`. */
export function hasBrand(x: unknown, symbol: symbol): boolean {
  return x !== null && typeof x === 'object' && symbol in x;
}
