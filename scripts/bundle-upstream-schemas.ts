/**
 * Writes `schemas/upstream/upstream-schemas.json.gz`, the upstream schemas shipped in the npm
 * package for users who have no ../shared/upstream (`cdk8s-inference validate`, the cdk8s
 * validation plugin): every Kubernetes OpenAPI component and CRD/XRD document the schema registry
 * reads in ../shared/upstream (or `$CDK8S_INFERENCE_UPSTREAM_DIR`), compacted (see
 * src/schema-validation/schema-bundle.ts for what is kept).
 *
 * Run with `npx projen bundle-schemas` after the upstream files change.
 * test/schema-validation/schema-bundle.test.ts fails when the committed bundle is stale.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildSchemaBundle, encodeSchemaBundle, SCHEMA_BUNDLE_FILE } from '../src/schema-validation/schema-bundle';
import { upstreamDir } from '../src/schema-validation/upstream-schemas';

function main(): void {
  const dir = upstreamDir();
  if (!fs.existsSync(dir)) {
    throw new Error(`no upstream directory at ${dir} (set CDK8S_INFERENCE_UPSTREAM_DIR)`);
  }
  const bundle = buildSchemaBundle(dir);
  const json = JSON.stringify(bundle);
  const gz = encodeSchemaBundle(bundle);
  fs.mkdirSync(path.dirname(SCHEMA_BUNDLE_FILE), { recursive: true });
  const tmp = `${SCHEMA_BUNDLE_FILE}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, gz);
  fs.renameSync(tmp, SCHEMA_BUNDLE_FILE);
  const kinds = bundle.definitions.reduce((n, f) => n + f.definitions.length, 0);
  const components = bundle.kubernetes.reduce((n, f) => n + Object.keys(f.schemas).length, 0);
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_BUNDLE_FILE)}: ${gz.length} bytes gzipped (${json.length} bytes of JSON) from ${bundle.sources.length} upstream files: ${kinds} CRD/XRD kinds, ${components} Kubernetes components`);
}

main();
