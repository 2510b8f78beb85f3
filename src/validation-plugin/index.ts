/**
 * A cdk8s validation plugin (cdk8s.yaml `validations:`) that checks every manifest `cdk8s synth`
 * writes against the upstream schemas and CEL rules, with the validator of
 * `cdk8s-inference validate` (src/schema-validation/object-validation.ts):
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/cdk8s-inference/lib/validation-plugin
 *     version: 1.0.0            # any exact version: cdk8s shows it in the report title
 *     class: UpstreamSchemaValidation
 *     properties:
 *       skipUnknownKinds: true  # optional: skip kinds without a schema instead of failing
 * ```
 *
 * How cdk8s-cli (2.x, `lib/plugins/_manager.js`) loads it: a `package` that is an absolute path
 * or starts with `./` is `require`d from the directory `cdk8s synth` runs in, with no install; any
 * other value is an npm package name, installed (`npm install <package>@<version>`) into
 * ~/.cdk8s/plugins and `require`d from there by its main entry. `version` must be exact (not a
 * range); `new <class>(properties)` is created and its `validate(context)` awaited. The context
 * holds the paths of the manifests written (`context.manifests`), construct metadata by resource
 * name, and a report to add violations to and `submit('success' | 'failure')`; a failed report
 * makes `cdk8s synth` print it and exit with code 2.
 *
 * Why a separate entry point (this folder, compiled to lib/validation-plugin/), not an export of
 * the library: the context is a cdk8s-cli class, which is no jsii type, and a plugin is loaded
 * only by Node's `require`, so the class has nothing to offer the Python bindings and could not
 * be expressed in them. The path form above needs no second install and always runs the version
 * of the library the app itself uses. (The npm-name form would need the class on the package's
 * main entry, i.e. in the jsii API: deliberately not offered.)
 *
 * The cdk8s-cli types are restated structurally below (cdk8s-cli is a CLI, not a dependency of
 * the library); test/validation-plugin/ checks them against the real classes.
 */
import { documentLabel, formatProblem, readInputDocuments } from '../cli/input-documents';
import { validateObject } from '../schema-validation/object-validation';

/** The properties of the plugin (cdk8s.yaml `properties:`). */
export interface UpstreamSchemaValidationProps {
  /** Skip objects whose apiVersion/kind has no upstream schema instead of failing. @default false */
  readonly skipUnknownKinds?: boolean;
}

/** A resource that violates a rule (cdk8s-cli `ValidationViolatingResource`). */
export interface ViolatingResource {
  readonly resourceName: string;
  readonly locations: readonly string[];
  readonly manifestPath: string;
}

/** A violation (cdk8s-cli `ValidationViolation`). */
export interface Violation {
  readonly ruleName: string;
  readonly recommendation: string;
  readonly fix: string;
  readonly violatingResources: readonly ViolatingResource[];
}

/** What the plugin uses of cdk8s-cli's `ValidationContext`. */
export interface PluginContext {
  readonly manifests: readonly string[];
  readonly report: {
    addViolation(violation: Violation): void;
    submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
  };
  readonly logger: { log(message: string): void };
}

const PROPERTIES = ['skipUnknownKinds'];

/** The cdk8s validation plugin: see the module comment for the cdk8s.yaml entry. */
export class UpstreamSchemaValidation {
  private readonly skipUnknownKinds: boolean;

  public constructor(props: UpstreamSchemaValidationProps = {}) {
    const unknown = Object.keys(props ?? {}).filter((k) => !PROPERTIES.includes(k));
    if (unknown.length > 0) {
      throw new Error(`UpstreamSchemaValidation: unknown properties ${unknown.map((k) => JSON.stringify(k)).join(', ')}; known: ${PROPERTIES.join(', ')}`);
    }
    const skip = props?.skipUnknownKinds;
    if (skip !== undefined && typeof skip !== 'boolean') {
      throw new Error(`UpstreamSchemaValidation: properties.skipUnknownKinds must be true or false, got ${JSON.stringify(skip)}`);
    }
    this.skipUnknownKinds = skip === true;
  }

  /** Validate every object of every manifest, add one violation per invalid object, and submit the report. */
  public async validate(context: PluginContext): Promise<void> {
    const { documents, problems } = readInputDocuments(context.manifests);
    let invalid = 0;
    let skipped = 0;
    for (const p of problems) {
      context.report.addViolation({
        ruleName: 'readable YAML',
        recommendation: formatProblem(p),
        fix: 'The manifest could not be read; fix what wrote it.',
        violatingResources: [{ resourceName: '<unknown>', locations: [p.message], manifestPath: p.file }],
      });
    }
    for (const doc of documents) {
      const verdict = validateObject(doc.content, {
        skipUnknownKinds: this.skipUnknownKinds,
        skipUnknownKindsHint: 'properties: {skipUnknownKinds: true}',
      });
      if (verdict.status === 'skipped') {
        skipped++;
        continue;
      }
      if (verdict.status === 'valid') continue;
      invalid++;
      const type = verdict.apiVersion && verdict.kind ? `${verdict.apiVersion} ${verdict.kind}` : 'a Kubernetes object';
      context.report.addViolation({
        ruleName: `${verdict.kind || '<no kind>'}/${verdict.name} must match the upstream schema of ${type}`,
        recommendation: `${documentLabel(doc.file, doc.index)}: ${verdict.violations.length} problem(s), listed as field path: problem (cdk8s-inference validate -f ${doc.file} reports the same)`,
        fix: 'Change the construct (or its escape hatch / JSON patch) so that each listed field is accepted; an unknown field would be dropped by the API server.',
        violatingResources: [{
          resourceName: verdict.name,
          locations: verdict.violations.map((v) => `${v.path}: ${v.message}`),
          manifestPath: doc.file,
        }],
      });
    }
    const valid = documents.length - invalid - skipped;
    context.logger.log(`cdk8s-inference: ${documents.length} object(s) in ${context.manifests.length} manifest(s): ${valid} valid, ${invalid} invalid${skipped > 0 ? `, ${skipped} of unknown kinds skipped` : ''}`);
    context.report.submit(invalid > 0 || problems.length > 0 ? 'failure' : 'success', {
      objects: String(documents.length),
      invalid: String(invalid),
      skipped: String(skipped),
    });
  }
}
