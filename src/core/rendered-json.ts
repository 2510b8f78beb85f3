import type { ApiObject } from 'cdk8s';

/**
 * An API object's final JSON (`toJson()`), rendered once inside `withRenderedJsonCache`. The
 * synth-time checks of emitted objects read every object's final JSON, and the CLI writes the
 * same JSON right after: rendering each object twice cost about a third of a 1,000-deployment
 * fleet's run. Outside the scope (the library: `App.synth()` renders on its own) every call
 * renders afresh, so nothing can read a stale rendering after the construct tree changes.
 */
let cache: WeakMap<ApiObject, any> | undefined;

export function renderedJson(obj: ApiObject): any {
  if (!cache) return obj.toJson();
  let json = cache.get(obj);
  if (json === undefined) {
    json = obj.toJson();
    cache.set(obj, json);
  }
  return json;
}

/** Runs `work` with each object's JSON rendered at most once (the objects must not change inside). */
export function withRenderedJsonCache<T>(work: () => T): T {
  const outer = cache;
  cache = new WeakMap();
  try {
    return work();
  } finally {
    cache = outer;
  }
}
