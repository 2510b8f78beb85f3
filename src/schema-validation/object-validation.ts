/**
 * Validating objects that come from outside (`cdk8s-inference validate`, the cdk8s validation
 * plugin): `validateManifest` (manifest-validator.ts), plus what input written by anyone needs
 * around it:
 * - an object whose apiVersion/kind has no upstream schema is an error that says which API
 *   groups and kinds are known, or is skipped when the caller asks (`skipUnknownKinds`);
 * - an object nested deeper than `MAX_OBJECT_DEPTH` is refused before any check walks it (the
 *   checks recurse; real manifests nest about 15 levels, a hostile one could exhaust the stack);
 * - an unexpected failure of a check becomes a violation of that object, never an exception, so
 *   one bad document cannot stop the others from being checked.
 */
import { describeValue } from './ajv-errors';
import { SchemaViolation, validateManifest } from './manifest-validator';
import { findUpstreamSchema, upstreamApiVersionsOf, upstreamGroupKinds } from './upstream-schemas';
import { closestMatch } from '../core/suggest';

type Json = any;

/** Deepest nesting of maps and lists accepted (the object itself is level 1). */
export const MAX_OBJECT_DEPTH = 100;

/** Most values (maps, lists and scalars) in one object that are walked. */
const MAX_OBJECT_VALUES = 5_000_000;

const UNNAMED = '<unnamed>';

/** How `validateObject` treats kinds without a schema. */
export interface ObjectValidationOptions {
  /** Skip objects whose apiVersion/kind has no upstream schema instead of reporting them. @default false */
  readonly skipUnknownKinds?: boolean;
  /** How the user asks for that, named in the error (`--skip-unknown-kinds`). @default - not named */
  readonly skipUnknownKindsHint?: string;
}

/** The outcome for one object. */
export interface ObjectVerdict {
  readonly apiVersion: string;
  readonly kind: string;
  /** metadata.name, or `<unnamed>`. */
  readonly name: string;
  /** `valid`, `invalid` (see violations) or `skipped` (a kind without schema, when asked to skip). */
  readonly status: 'valid' | 'invalid' | 'skipped';
  /** Every violation (empty unless invalid); for `skipped`, the one saying why. */
  readonly violations: SchemaViolation[];
}

/** Validate one object from outside; never throws. */
export function validateObject(obj: Json, options: ObjectValidationOptions = {}): ObjectVerdict {
  const apiVersion = typeof obj?.apiVersion === 'string' ? obj.apiVersion : '';
  const kind = typeof obj?.kind === 'string' ? obj.kind : '';
  const name = typeof obj?.metadata?.name === 'string' && obj.metadata.name ? obj.metadata.name : UNNAMED;
  const verdict = (status: ObjectVerdict['status'], violations: SchemaViolation[]): ObjectVerdict =>
    ({ apiVersion, kind, name, status, violations });
  const rootViolation = (message: string): SchemaViolation => ({ apiVersion, kind, name, path: '(root)', message });

  const tooDeep = nestingProblem(obj);
  if (tooDeep) {
    return verdict('invalid', [rootViolation(tooDeep)]);
  }
  try {
    if (apiVersion && kind && obj && typeof obj === 'object' && !Array.isArray(obj) && !findUpstreamSchema(apiVersion, kind)) {
      const why = unknownKindMessage(apiVersion, kind);
      if (options.skipUnknownKinds) {
        return verdict('skipped', [rootViolation(why)]);
      }
      const hint = options.skipUnknownKindsHint ? ` (${options.skipUnknownKindsHint} skips objects of kinds without a schema)` : '';
      return verdict('invalid', [rootViolation(`${why}${hint}`)]);
    }
    const violations = validateManifest(obj);
    return verdict(violations.length > 0 ? 'invalid' : 'valid', violations);
  } catch (e: any) {
    return verdict('invalid', [rootViolation(`cannot be validated: ${e?.message ?? e}`)]);
  }
}

/**
 * Why apiVersion+kind has no schema, with what is known instead: the versions of a known kind,
 * the kinds of a known group (and the closest one), or the known API groups.
 */
export function unknownKindMessage(apiVersion: string, kind: string): string {
  const slash = apiVersion.lastIndexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const unknown = `unknown kind: no schema for apiVersion ${JSON.stringify(apiVersion)}, kind ${JSON.stringify(kind)}`;
  const groupKinds = upstreamGroupKinds().map((k) => {
    const space = k.indexOf(' ');
    return { group: k.slice(0, space), kind: k.slice(space + 1) };
  });
  const groupName = (g: string) => (g === '' ? 'core (apiVersion v1)' : g);
  const kindsOfGroup = groupKinds.filter((k) => k.group === group).map((k) => k.kind);
  // `DeploymentList` and the like are kinds too, but only noise in a list of what to write.
  const listed = kindsOfGroup.filter((k) => !(k.endsWith('List') && kindsOfGroup.includes(k.slice(0, -4))));
  if (kindsOfGroup.includes(kind)) {
    const versions = upstreamApiVersionsOf(group, kind);
    const served = versions.length > 0 ? `; ${kind} is known as ${versions.map((v) => `apiVersion ${v}`).join(', ')}` : '';
    return `${unknown}${served}`;
  }
  if (kindsOfGroup.length > 0) {
    const closest = closestMatch(kind, kindsOfGroup);
    return `${unknown}; known kinds of group ${groupName(group)}: ${listed.join(', ')}${closest ? `; did you mean ${JSON.stringify(closest)}?` : ''}`;
  }
  const groups = [...new Set(groupKinds.map((k) => k.group))].sort();
  const closest = closestMatch(group, groups.filter((g) => g));
  return `${unknown}; known API groups: ${groups.map(groupName).join(', ')}${closest ? `; did you mean ${JSON.stringify(closest)}?` : ''}`;
}

/** Why an object is too deep or too large to walk, or undefined. Iterative: never recurses. */
function nestingProblem(obj: Json): string | undefined {
  const stack: Array<[Json, number]> = [[obj, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > MAX_OBJECT_VALUES) {
      return `too large to validate: more than ${MAX_OBJECT_VALUES} values`;
    }
    if (!value || typeof value !== 'object') {
      continue;
    }
    if (depth > MAX_OBJECT_DEPTH) {
      return `nested more than ${MAX_OBJECT_DEPTH} levels deep (${describeValue(value)} at level ${depth}); not validated`;
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (child && typeof child === 'object') {
        stack.push([child, depth + 1]);
      } else {
        values++;
      }
    }
  }
  return undefined;
}
