import type { ApiObject } from 'cdk8s';

/**
 * `compute()`, remembered until one of `objects` changes. cdk8s validates the whole app once per
 * synthesis and then again for every chart it renders (`Chart.toJson` validates the app), so a
 * check that renders every object (the synth-time checks of emitted objects) would run 1 + the
 * number of charts times over the same, unchanged objects: twice the cost of rendering the app
 * with one chart, fifty-one times with fifty.
 *
 * After construction an object's JSON changes only through its public escape hatches: JSON
 * patches and metadata (labels, annotations, finalizers, owner references). Each call of one
 * forgets the remembered result, so a check after a patch sees the patch.
 */
export function memoUntilChanged<T>(objects: readonly ApiObject[], compute: () => T): () => T {
  let remembered: { value: T } | undefined;
  const forget = () => {
    remembered = undefined;
  };
  for (const o of objects) {
    forgetOnCall(o, 'addJsonPatch', forget);
    for (const method of METADATA_MUTATORS) forgetOnCall(o.metadata, method, forget);
  }
  return () => (remembered ??= { value: compute() }).value;
}

/** The methods of `ApiObjectMetadataDefinition` that change what an object renders. */
const METADATA_MUTATORS = ['add', 'addLabel', 'addAnnotation', 'addFinalizers', 'addOwnerReference'] as const;

/** Wraps `target[method]` (an own property shadowing the prototype's) so that calling it runs `forget` first. */
function forgetOnCall(target: object, method: string, forget: () => void): void {
  const original = (target as any)[method];
  if (typeof original !== 'function') return;
  Object.defineProperty(target, method, {
    value: function (this: unknown, ...args: unknown[]) {
      forget();
      return original.apply(this, args);
    },
    configurable: true,
    writable: true,
  });
}
