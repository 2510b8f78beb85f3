/**
 * Deepest nesting copied here; deeper values (only a cycle built in code gets there: inputs are
 * refused beyond 100 levels) are handed to structuredClone, which follows cycles.
 */
const MAX_COPY_DEPTH = 200;

/**
 * A deep copy of a spec, what the admission stages take before they change one (three times per
 * deployment). `structuredClone` goes through V8's value serializer and took 3 % of a
 * 1,000-deployment `synth`; copying plain objects and arrays directly takes a fraction of that.
 *
 * It gives what structuredClone gives for what specs hold, parsed from YAML or built from props
 * (test/core/json-clone.test.ts compares the two, on the fuzzer's hostile inputs too): primitives
 * as they are (NaN, Infinity and undefined included), an own `__proto__` key as an own property,
 * and anything that is not a plain object or array (a Date, a class instance) copied by
 * structuredClone itself.
 */
export function cloneJson<T>(value: T): T {
  return copy(value, 0) as T;
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_COPY_DEPTH) return structuredClone(value);
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    // Assigning `__proto__` would set the prototype instead of adding the key.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
