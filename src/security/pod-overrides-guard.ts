/**
 * The guard on `spec.provider.overrides`: they are an escape hatch into the provider's objects,
 * not a way to run pods with access to the node. Overrides may not take a pod below the Pod
 * Security Standard "baseline" (hostPath volumes, host ports, host namespaces, privileged
 * containers, capabilities beyond the runtime's default set, ...) nor add init or ephemeral
 * containers (code that runs before or beside the engine, outside what the deployment declares),
 * unless the ProviderRegistry allows it with `allowPrivilegedPodOverrides`.
 *
 * The check runs on the final pod templates (overrides merged), so it sees what the cluster will
 * run whatever path a provider merges the overrides through (a LeaderWorkerSet's pod template
 * copied into leader and worker, a Dynamo component merged by name), and reports each problem at
 * the part of `spec.provider.overrides` that brought it in. What the provider generated itself
 * is not the overrides' doing and is not reported here.
 */
import type { ApiObject } from 'cdk8s';
import { podSecurityViolations } from './pod-security-standard';
import { manifestPathOf, podTemplatesOf } from './pod-templates';
import { FieldError, invalid } from '../core/field-error';
import { joinSegments, parsePath, PathSegment } from '../core/field-path';
import { isJsonObject } from '../core/json-object';
import { renderedJson } from '../core/rendered-json';
import { mergedOverridesOf, PROVIDER_OVERRIDES_PATH } from '../provider-kit/overrides';

const ALLOW_PROP = 'allowPrivilegedPodOverrides';


/** One thing in a final pod template that overrides may not bring in. */
interface Finding {
  /** Path relative to the pod spec. */
  readonly path: string;
  /** The value at that path in the pod spec, as the overrides must hold it to be the source. */
  readonly value: unknown;
  /** What is shown as the value in the error (never a whole container: it may hold secrets). */
  readonly shown: unknown;
  readonly message: string;
}

/**
 * The field errors of the overrides merged into `objects` (the deployment's emitted objects):
 * one per field of `overrides` that takes a pod below "baseline" or adds an init or ephemeral
 * container. None when `allowPrivileged` is set.
 */
export function podOverrideErrors(objects: readonly ApiObject[], overrides: unknown, allowPrivileged: boolean): FieldError[] {
  if (allowPrivileged || !isJsonObject(overrides)) return [];
  const errors = new Map<string, FieldError>();
  for (const obj of objects) {
    if (mergedOverridesOf(obj) === undefined) continue;
    const json = renderedJson(obj);
    const what = `${obj.kind} ${JSON.stringify(obj.name)}`;
    for (const location of podTemplatesOf(json)) {
      for (const finding of findingsOf(location.podSpec)) {
        const manifestPath = manifestPathOf(location, finding.path);
        const relative = parsePath(manifestPath).slice(parsePath(location.path).length);
        const source = sourceInOverrides(overrides, parsePath(manifestPath), relative, finding.value);
        if (source === undefined) continue;
        const path = joinSegments(PROVIDER_OVERRIDES_PATH, source);
        if (errors.has(path)) continue;
        errors.set(path, invalid(
          path,
          finding.shown,
          `${finding.message}: provider overrides may not weaken a pod below the Pod Security Standard "baseline" ` +
            `(in the synthesized ${what} at ${manifestPath}); a ProviderRegistry with ${ALLOW_PROP}: true allows it`,
        ));
      }
    }
  }
  return [...errors.values()];
}

function findingsOf(podSpec: any): Finding[] {
  const findings: Finding[] = podSecurityViolations(podSpec, 'baseline').map((v) => ({
    path: v.path,
    value: v.value,
    shown: isJsonObject(v.value) || Array.isArray(v.value) ? JSON.stringify(v.value) : v.value,
    message: v.message,
  }));
  for (const list of ['initContainers', 'ephemeralContainers']) {
    const containers = podSpec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container, i) => {
      findings.push({
        path: `${list}[${i}]`,
        value: container,
        shown: isJsonObject(container) && typeof container.name === 'string' ? container.name : '<container>',
        message: `${list === 'initContainers' ? 'init' : 'ephemeral'} containers may not be added through overrides (they run code the deployment does not declare)`,
      });
    });
  }
  return findings;
}

/**
 * Where in the overrides `value` came from: the same path as in the object when the overrides
 * were merged at the object's root, else a path that ends with the same pod-relative segments
 * and holds an equal value (a pod template the provider copied or moved, e.g. into a
 * LeaderWorkerSet's leader and worker templates). Undefined when the overrides do not hold it.
 */
function sourceInOverrides(
  overrides: Record<string, unknown>,
  manifestPath: PathSegment[],
  relative: PathSegment[],
  value: unknown,
): PathSegment[] | undefined {
  if (has(overrides, manifestPath) && sameJson(valueAt(overrides, manifestPath), value)) return manifestPath;
  let found: PathSegment[] | undefined;
  walk(overrides, [], (path, node) => {
    if (path.length < relative.length) return false;
    const tail = path.slice(path.length - relative.length);
    if (tail.every((s, i) => s === relative[i]) && sameJson(node, value)) found = path;
    return found !== undefined;
  });
  return found;
}

/** Depth-first over objects and arrays, iteratively (overrides may nest deeply); stops when `visit` returns true. */
function walk(root: unknown, base: PathSegment[], visit: (path: PathSegment[], node: unknown) => boolean): void {
  const stack: Array<[unknown, PathSegment[]]> = [[root, base]];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (path.length > 0 && visit(path, node)) return;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], [...path, i]]);
    } else if (isJsonObject(node)) {
      for (const key of Object.keys(node).reverse()) stack.push([node[key], [...path, key]]);
    }
  }
}

function has(root: unknown, path: readonly PathSegment[]): boolean {
  let node = root;
  for (const s of path) {
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, s)) return false;
    node = (node as any)[s];
  }
  return true;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node: any = root;
  for (const s of path) node = node !== null && typeof node === 'object' ? node[s] : undefined;
  return node;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

