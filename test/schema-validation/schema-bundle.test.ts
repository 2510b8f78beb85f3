import * as fs from 'fs';
import * as path from 'path';
import {
  clone, deployment, dynamoV1alpha1, dynamoV1beta1, gateway, httpRoute, inferencePool, job, modelDeployment, pvc,
  rayService, resourceClaimTemplate, service, workspace,
} from './fixtures';
import { restore } from './synthetic-upstream';
import { validateManifest } from '../../src/schema-validation/manifest-validator';
import { buildSchemaBundle, compactSchema, parseDefinitionDocuments, readSchemaBundle, SCHEMA_BUNDLE_FILE } from '../../src/schema-validation/schema-bundle';
import { convertKubernetesComponent } from '../../src/schema-validation/schema-conversion';
import {
  convertDefinitionDocuments, findUpstreamSchema, listUpstreamSchemas, SCHEMA_SOURCE_ENV, schemaLoadStats, UPSTREAM_DIR_ENV,
  upstreamDir, upstreamSchemaLocation,
} from '../../src/schema-validation/upstream-schemas';

const committed = readSchemaBundle();
const upstream = upstreamDir();

/** Run `fn` with the registry reading the bundle shipped in the package. */
function withBundle<T>(fn: () => T): T {
  const saved = process.env[SCHEMA_SOURCE_ENV];
  process.env[SCHEMA_SOURCE_ENV] = 'bundled';
  try {
    return fn();
  } finally {
    restore(SCHEMA_SOURCE_ENV, saved);
  }
}

describe('upstream schema bundle (schemas/upstream/upstream-schemas.json.gz)', () => {
  test('is fresh: regenerating it from ../shared/upstream gives the committed content (else run npx projen bundle-schemas)', () => {
    const fresh = buildSchemaBundle(upstream);
    // The sources first: a changed upstream file is named, not buried in a megabyte diff.
    expect(committed.sources).toEqual(fresh.sources);
    expect(JSON.stringify(committed) === JSON.stringify(fresh)).toBe(true);
  });

  test('stays small enough to ship: under 256 KiB gzipped', () => {
    expect(fs.statSync(SCHEMA_BUNDLE_FILE).size).toBeLessThan(256 * 1024);
  });

  test('compaction keeps everything the conversion reads: every CRD/XRD converts to the same schemas and CEL rules', () => {
    for (const bundled of committed.definitions) {
      const original = parseDefinitionDocuments(fs.readFileSync(path.join(upstream, bundled.file), 'utf8'), bundled.file);
      expect({ file: bundled.file, converted: convertDefinitionDocuments(bundled.documents) })
        .toEqual({ file: bundled.file, converted: convertDefinitionDocuments(original) });
    }
    expect(committed.definitions.length).toBeGreaterThan(30);
  });

  test('compaction keeps everything the conversion reads: every Kubernetes component converts the same', () => {
    const noDrops = { dropPattern: () => undefined };
    let compared = 0;
    for (const bundled of committed.kubernetes) {
      const original = JSON.parse(fs.readFileSync(path.join(upstream, bundled.file), 'utf8')).components.schemas;
      for (const [name, schema] of Object.entries(bundled.schemas)) {
        expect(convertKubernetesComponent(name, schema, noDrops)).toEqual(convertKubernetesComponent(name, original[name], noDrops));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  test('drops descriptions only where they are schema documentation', () => {
    const schema = {
      'description': 'dropped',
      'type': 'object',
      'default': { description: 'kept: a value' },
      'properties': { description: { type: 'string', description: 'dropped' } },
      'items': { description: 'dropped', enum: [{ description: 'kept' }] },
      'anyOf': [{ description: 'dropped', type: 'string' }],
      'x-kubernetes-validations': [{ rule: 'true', message: 'kept' }],
    };
    expect(compactSchema(schema)).toEqual({
      'type': 'object',
      'default': { description: 'kept: a value' },
      'properties': { description: { type: 'string' } },
      'items': { enum: [{ description: 'kept' }] },
      'anyOf': [{ type: 'string' }],
      'x-kubernetes-validations': [{ rule: 'true', message: 'kept' }],
    });
  });
});

describe('schema source precedence', () => {
  const saved = { source: process.env[SCHEMA_SOURCE_ENV], dir: process.env[UPSTREAM_DIR_ENV] };
  afterEach(() => {
    restore(SCHEMA_SOURCE_ENV, saved.source);
    restore(UPSTREAM_DIR_ENV, saved.dir);
  });

  test('../shared/upstream when it exists; the bundle when forced or when no directory is there', () => {
    delete process.env[SCHEMA_SOURCE_ENV];
    delete process.env[UPSTREAM_DIR_ENV];
    expect(upstreamSchemaLocation()).toEqual({ kind: 'directory', path: upstream });
    process.env[SCHEMA_SOURCE_ENV] = 'bundled';
    expect(upstreamSchemaLocation()).toEqual({ kind: 'bundle', path: SCHEMA_BUNDLE_FILE });
    process.env[SCHEMA_SOURCE_ENV] = 'auto';
    process.env[UPSTREAM_DIR_ENV] = path.join(upstream, 'kubernetes');
    expect(upstreamSchemaLocation()).toEqual({ kind: 'directory', path: path.join(upstream, 'kubernetes') });
    process.env[SCHEMA_SOURCE_ENV] = 'bundle';
    expect(() => upstreamSchemaLocation()).toThrow('CDK8S_INFERENCE_SCHEMAS="bundle": expected "bundled" or "auto"');
  });
});

describe('the bundle gives the same verdicts as ../shared/upstream', () => {
  const unknownField: any = deployment();
  unknownField.spec.template.spec.containers[0].imagePullPolcy = 'Always';
  const badLabel: any = service();
  badLabel.metadata.labels = { app: 'not a valid value!' };
  const celPath: any = httpRoute();
  celPath.spec.rules[0].matches[0].path.value = 'v1//chat';
  const celGateway: any = gateway();
  celGateway.spec.listeners.push({ name: 'http', port: 8080, protocol: 'HTTP' });
  const celPool: any = inferencePool();
  delete celPool.spec.endpointPickerRef.port;
  const celQuantity: any = dynamoV1alpha1();
  celQuantity.spec.services.VllmWorker.sharedMemory = { disabled: false, size: '0' };
  const celOnCreate: any = dynamoV1beta1();
  celOnCreate.spec.restart = { id: 'r1' };
  const wrongType: any = rayService();
  wrongType.spec.rayClusterConfig.workerGroupSpecs[0].replicas = 'one';
  const missingRequired: any = modelDeployment();
  delete missingRequired.spec.model;
  const unknownKind = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };

  const cases: Array<[string, any, boolean]> = [
    ['Deployment', deployment(), true], ['Service', service(), true], ['PVC', pvc(), true], ['Job', job(), true],
    ['ModelDeployment', modelDeployment(), true], ['DynamoGraphDeployment v1alpha1', dynamoV1alpha1(), true],
    ['DynamoGraphDeployment v1beta1', dynamoV1beta1(), true], ['RayService', rayService(), true], ['Workspace', workspace(), true],
    ['InferencePool', inferencePool(), true], ['HTTPRoute', httpRoute(), true], ['Gateway', gateway(), true],
    ['ResourceClaimTemplate', resourceClaimTemplate(), true],
    ['unknown field', unknownField, false], ['bad label value', badLabel, false], ['CEL: path', celPath, false],
    ['CEL: unique listeners', celGateway, false], ['CEL: endpoint picker port', celPool, false],
    ['CEL: quantity library', celQuantity, false], ['CEL: optionalOldSelf on create', celOnCreate, false],
    ['wrong type', wrongType, false], ['missing required field', missingRequired, false], ['unknown kind', unknownKind, false],
  ];

  test.each(cases)('%s', (_name, obj, valid) => {
    const fromDirectory = validateManifest(clone(obj));
    const fromBundle = withBundle(() => validateManifest(clone(obj)));
    expect(fromBundle).toEqual(fromDirectory);
    expect(fromDirectory.length === 0).toBe(valid);
  });

  test('the bundle defines exactly the kinds the directory defines, from the same files', () => {
    const fromDirectory = listUpstreamSchemas();
    const fromBundle = withBundle(() => listUpstreamSchemas());
    expect(fromBundle).toEqual(fromDirectory);
    expect(withBundle(() => findUpstreamSchema('apps/v1', 'Deployment'))).toMatchObject({ file: 'kubernetes/apis__apps__v1_openapi.json' });
    // The bundled registry never touched the directory.
    expect(withBundle(() => schemaLoadStats().cacheHits)).toBe(0);
  });
});
