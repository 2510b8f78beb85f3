/**
 * Jest helper over the manifest validator in src/schema-validation (see manifest-validator.ts for
 * what is checked): `expectValidManifests(objs)` validates many objects and throws one error
 * listing every violation as `<kind>/<name>: <json path>: <message>`.
 */
import { formatViolation, validateManifests } from '../../src/schema-validation/manifest-validator';

export { formatViolation, validateManifest, validateManifests } from '../../src/schema-validation/manifest-validator';
export type { SchemaViolation } from '../../src/schema-validation/manifest-validator';

/**
 * Jest helper: throws one error that lists every violation of every object, one a line.
 * Accepts the output of `Testing.synth(chart)` (an array) or a single object.
 */
export function expectValidManifests(objs: any[] | any): void {
  const list: any[] = Array.isArray(objs) ? objs : [objs];
  if (list.length === 0) {
    throw new Error('expectValidManifests: no manifests given (did the chart synthesize nothing?)');
  }
  const violations = validateManifests(list);
  if (violations.length > 0) {
    const lines = violations.map((v) => `  ${formatViolation(v)}`);
    throw new Error(`${violations.length} schema violation(s) in ${list.length} manifest(s):\n${lines.join('\n')}`);
  }
}
