import * as fs from 'fs';
import * as path from 'path';
import Ajv, { ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import { airunwaySpecExamples } from './envtest/airunway-spec-examples';
import { EDITOR_SCHEMA_FILE, renderEditorSchema } from '../scripts/editor-schema';
import { parseModelDeploymentManifest } from '../src/admission/model-deployment-manifest';
import { readInferenceProviderConfigManifest } from '../src/api/provider/inference-provider-config-manifest';
import { upstreamDir } from '../src/schema-validation/upstream-schemas';

const root = path.join(__dirname, '..');
const committed = fs.readFileSync(EDITOR_SCHEMA_FILE, 'utf8');
const schema = JSON.parse(committed);

// Strict: a keyword Ajv does not know (a typo in the generator, a CRD keyword that slipped
// through) fails compilation instead of being ignored by the editor.
const validate: ValidateFunction = new Ajv({ allErrors: true, strict: true }).compile(schema);

function errorsOf(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** The YAML files of the examples, including those of example folders. */
function exampleFiles(): string[] {
  return fs.readdirSync(path.join(root, 'examples'), { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).sort();
}

/** Every YAML document of the examples, including those of example folders. */
function exampleDocuments(): Array<[string, unknown]> {
  const dir = path.join(root, 'examples');
  return exampleFiles().flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8'))
    .map((d, i): [string, unknown] => [`${f}[doc ${i}]`, d.toJS()]));
}

const MINIMAL = `
apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata:
  name: qwen
  namespace: ml
spec:
  model:
    id: Qwen/Qwen3-0.6B
  resources:
    gpu:
      count: 1
`;

function minimal(): any {
  return parseAllDocuments(MINIMAL)[0].toJS();
}

describe('editor schema (schemas/modeldeployment.schema.json)', () => {
  test('the committed file is what scripts/editor-schema.ts generates (run `npx projen editor-schema`)', () => {
    expect(renderEditorSchema(upstreamDir())).toEqual(committed);
  });

  test('is a draft-07 schema, the draft yaml-language-server implements', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  });

  test('ships in the npm package: nothing in .npmignore excludes schemas/', () => {
    const ignored = fs.readFileSync(path.join(root, '.npmignore'), 'utf8').split('\n').map((l) => l.trim());
    expect(ignored.filter((l) => l === '/schemas/' || l === 'schemas' || l === '/schemas' || l.startsWith('/schemas/'))).toEqual([]);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    if (pkg.files) expect(pkg.files).toContain('schemas/');
  });

  const examples = exampleDocuments();
  test('there are ModelDeployment and NodePool example documents', () => {
    const kinds = new Set(examples.map(([, d]) => (d as any).kind));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['ModelDeployment', 'NodePool']));
  });

  // The examples' modelines are relative to each file: a moved schema must not leave them dangling.
  test.each(exampleFiles())('the modeline of examples/%s names the schema', (file) => {
    const first = fs.readFileSync(path.join(root, 'examples', file), 'utf8').split('\n')[0];
    const m = /^# yaml-language-server: \$schema=(\S+)$/.exec(first);
    expect(m && path.resolve(root, 'examples', path.dirname(file), m[1])).toBe(EDITOR_SCHEMA_FILE);
  });

  test.each(examples)('accepts %s', (_id, doc) => {
    expect(errorsOf(doc)).toEqual([]);
  });

  // AI Runway's own examples: whatever the CLI's schema check accepts, the editor must accept
  // too (the editor must never flag valid input), and the editor flags what the CLI refuses for
  // its shape.
  const specExamples = airunwaySpecExamples().map((e): [string, any] => [e.id, e.manifest]);
  test('AI Runway\'s examples include ModelDeployments', () => {
    expect(specExamples.filter(([, m]) => m.kind === 'ModelDeployment').length).toBeGreaterThan(0);
  });
  test.each(specExamples)('agrees with the CLI\'s schema check on AI Runway\'s example %s', (_id, manifest) => {
    const cliErrors = manifest.kind === 'ModelDeployment'
      ? parseModelDeploymentManifest(manifest).errors
      : readInferenceProviderConfigManifest(manifest).errors;
    expect(errorsOf(manifest).length > 0).toBe(cliErrors.length > 0);
  });

  test('accepts a minimal ModelDeployment, and our annotations as strings', () => {
    const md = minimal();
    md.metadata.annotations = {
      'inference.cdk8s.io/multi-node': 'gpusPerNode: 8\n',
      'inference.cdk8s.io/tolerate-gpu-taint': 'true',
      'inference.cdk8s.io/flexinfer-scale-to-zero': 'true',
      'example.com/anything': 'x',
    };
    expect(errorsOf(md)).toEqual([]);
  });

  test('fails when the serving mode is not one of the CRD\'s', () => {
    const md = minimal();
    md.spec.serving = { mode: 'pipelined' };
    expect(errorsOf(md)).toContain('/spec/serving/mode must be equal to one of the allowed values');
  });

  test('fails when replicas is a string or beyond int32', () => {
    const md = minimal();
    md.spec.scaling = { replicas: '2' };
    expect(errorsOf(md)).toContain('/spec/scaling/replicas must be integer');
    md.spec.scaling = { replicas: 3_000_000_000 };
    expect(errorsOf(md)).toContain('/spec/scaling/replicas must be <= 2147483647');
  });

  test('fails on an unknown spec field (a typo)', () => {
    const md = minimal();
    md.spec.replica = 2;
    expect(errorsOf(md)).toContain('/spec must NOT have additional properties');
    expect(validate.errors?.find((e) => e.keyword === 'additionalProperties')?.params).toEqual({ additionalProperty: 'replica' });
  });

  test('fails when an annotation that holds YAML is written as a mapping, not a string', () => {
    const md = minimal();
    md.metadata.annotations = { 'inference.cdk8s.io/lora': { adapters: [] } };
    expect(errorsOf(md)).toContain('/metadata/annotations/inference.cdk8s.io~1lora must be string');
  });

  test('fails on a misspelt FlexInfer annotation or a value the provider refuses', () => {
    const md = minimal();
    md.metadata.annotations = { 'inference.cdk8s.io/flexinfer-scale-to-zeroo': 'true' };
    expect(errorsOf(md)).toContain('/metadata/annotations/inference.cdk8s.io~1flexinfer-scale-to-zeroo must NOT be valid');
    md.metadata.annotations = { 'inference.cdk8s.io/flexinfer-cache-strategy': 'Disk' };
    expect(errorsOf(md)).toContain('/metadata/annotations/inference.cdk8s.io~1flexinfer-cache-strategy must be equal to one of the allowed values');
  });

  test('an int-or-string field takes both, and a string only in quantity syntax', () => {
    const md = minimal();
    md.spec.model.storage = { volumes: [{ name: 'cache', purpose: 'modelCache', size: '100Gi' }] };
    expect(errorsOf(md)).toEqual([]);
    md.spec.model.storage.volumes[0].size = 100;
    expect(errorsOf(md)).toEqual([]);
    md.spec.model.storage.volumes[0].size = 'a lot';
    expect(errorsOf(md)).toContain('/spec/model/storage/volumes/0/size must match exactly one schema in oneOf');
  });

  test('fails on a kind the CLI does not read, and on a NodePool without nodes', () => {
    expect(errorsOf({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' } })).toEqual(expect.arrayContaining([
      '/kind must be equal to one of the allowed values',
    ]));
    expect(errorsOf({ apiVersion: 'inference.cdk8s.io/v1alpha1', kind: 'NodePool', metadata: { name: 'a' }, spec: { labels: {} } }))
      .toContain('/spec must have required property \'nodes\'');
  });

  test('fails on a namespace for the cluster-scoped InferenceProviderConfig', () => {
    const ipc = { apiVersion: 'airunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name: 'p', namespace: 'ml' }, spec: {} };
    expect(errorsOf(ipc)).toContain('/metadata/namespace must NOT be valid');
    delete (ipc.metadata as any).namespace;
    expect(errorsOf(ipc)).toEqual([]);
  });

  test('documents every inference.cdk8s.io annotation and label the code defines for a record', () => {
    const documented = new Set([
      ...Object.keys(schema.definitions.ModelDeployment.properties.metadata.properties.annotations.properties),
      ...Object.keys(schema.definitions.ModelDeployment.properties.metadata.properties.labels.properties),
      ...Object.keys(schema.definitions.InferenceProviderConfig.properties.metadata.properties.annotations.properties),
    ]);
    const defined = new Set<string>();
    for (const file of fs.readdirSync(path.join(root, 'src'), { recursive: true }).map(String)) {
      if (!file.endsWith('.ts') || file.startsWith('imports')) continue;
      for (const m of fs.readFileSync(path.join(root, 'src', file), 'utf8').matchAll(/'(inference\.cdk8s\.io\/[a-z0-9.-]+)'/g)) defined.add(m[1]);
    }
    // Not record metadata: the NodePool apiVersion, the FlexInfer prefix (each name is listed),
    // and Kthena's pod labels.
    const notRecordMetadata = ['inference.cdk8s.io/v1alpha1', 'inference.cdk8s.io/flexinfer-', 'inference.cdk8s.io/kthena-role', 'inference.cdk8s.io/kthena-entry', 'inference.cdk8s.io/kthena-model-serving'];
    expect([...defined].filter((k) => !notRecordMetadata.includes(k) && !documented.has(k)).sort()).toEqual([]);
  });
});
