/*
 * The Dynamo runtime version a graph is rendered for, and what it decides. Dynamo 1.5 made
 * nvidia.com/v1beta1 the storage version (v1alpha1 graphs go through its conversion, and its
 * admission no longer serves v1alpha1) and replaced the Go endpoint picker, configured by the
 * `Epp` component's `eppConfig`, with a native one that takes no such configuration. Kept apart
 * from the translator (no cdk8s-plus-34), as the validation needs it too.
 */

/** The first Dynamo runtime whose graphs are nvidia.com/v1beta1 and whose endpoint picker is native. */
export const DYNAMO_V1BETA1_MIN_RUNTIME = '1.5.0';

/** A parsed `MAJOR.MINOR.PATCH`. */
export type RuntimeVersion = readonly [number, number, number];

const SEMVER_PREFIX = /^v?(\d+)\.(\d+)\.(\d+)/;

/**
 * The semantic version a tag starts with (`1.6.1`, `v1.4.0-cuda13` → 1.4.0), undefined for any
 * other tag (`latest`, `main-2f1c`).
 */
export function parseRuntimeVersion(tag: string): RuntimeVersion | undefined {
  const m = SEMVER_PREFIX.exec(tag);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** `MAJOR.MINOR.PATCH`, the canonical form `runtimeVersionOverride` requires. */
export function formatRuntimeVersion(v: RuntimeVersion): string {
  return v.join('.');
}

function compare(a: RuntimeVersion, b: RuntimeVersion): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

const MIN_V1BETA1 = parseRuntimeVersion(DYNAMO_V1BETA1_MIN_RUNTIME)!;

/**
 * True for a runtime from 1.5.0 on: v1beta1 graphs and the native endpoint picker. An unknown
 * runtime (a tag that is no version) counts as a current one, as a moving tag follows releases.
 */
export function isV1Beta1Runtime(runtime: RuntimeVersion | undefined): boolean {
  return runtime === undefined || compare(runtime, MIN_V1BETA1) >= 0;
}
