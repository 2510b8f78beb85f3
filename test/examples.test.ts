import * as fs from 'fs';
import * as path from 'path';
import { App, Chart, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { ModelDeploymentController } from '../src';
import { expectValidManifests } from './support/schema-validator';
import { main } from '../src/cli/main';

const examplesDir = path.join(__dirname, '..', 'examples');
/** TypeScript examples: a file, or a folder whose `index.ts` is the entry point. */
const tsExamples = fs
  .readdirSync(examplesDir)
  .filter((f) => f.endsWith('.ts') || fs.existsSync(path.join(examplesDir, f, 'index.ts')))
  .sort();
const yamlExamples = fs.readdirSync(examplesDir).filter((f) => /\.ya?ml$/.test(f)).sort();

/** Every object of every chart of the app, as `cdk8s synth` would write them. */
function synthesizeApp(app: App): any[] {
  // Validations first, as App.synth() does: an invalid example must fail here.
  const errors = app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return app.charts.flatMap((chart) => Testing.synth(chart));
}

describe('examples', () => {
  test('there are examples of each kind', () => {
    expect(tsExamples.length).toBeGreaterThanOrEqual(4);
    expect(yamlExamples.length).toBeGreaterThanOrEqual(1);
  });

  test.each(tsExamples)('%s synthesizes schema-valid objects', (file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const example = require(path.join(examplesDir, file));
    const app = Testing.app();
    example.build(app);
    const manifests = synthesizeApp(app);
    expect(manifests.length).toBeGreaterThan(0);
    // CustomResourceDefinitions have no OpenAPI document in ../shared/upstream: the real API
    // server validates them (test/envtest).
    expectValidManifests(manifests.filter((m) => m.kind !== 'CustomResourceDefinition'));
    expect(manifests).toMatchSnapshot();
  });

  test.each(yamlExamples)('%s synthesizes through the CLI into schema-valid objects', async (file) => {
    let stdout = '';
    const stderr: string[] = [];
    const code = await main(['synth', '-f', path.join(examplesDir, file)], { stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l) });
    expect(stderr).toEqual([]);
    expect(code).toBe(0);
    const manifests = parseAllDocuments(stdout).map((d) => d.toJS());
    expectValidManifests(manifests);
    expect(manifests).toMatchSnapshot();
  });

  test('each record lists exactly the objects synthesized for it, and the controller may set their ownerReferences', () => {
    const manifests = tsExamples.flatMap((file) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const example = require(path.join(examplesDir, file));
      const app = Testing.app();
      example.build(app);
      return synthesizeApp(app).map((m) => ({ ...m, example: file }));
    });
    const id = (m: { example: string; apiVersion: string; kind: string; namespace?: string; name: string }) => `${m.example} ${m.apiVersion} ${m.kind} ${m.namespace ?? ''}/${m.name}`;
    const synthesized = new Set(manifests.map((m) => id({ ...m, namespace: m.metadata.namespace, name: m.metadata.name })));
    const listed: string[] = [];
    const listedKinds = new Set<string>();
    for (const record of manifests.filter((m) => m.apiVersion === 'airunway.ai/v1alpha1' && m.kind === 'ModelDeployment')) {
      for (const ref of JSON.parse(record.metadata.annotations['inference.cdk8s.io/rendered-objects'])) {
        listed.push(id({ example: record.example, ...ref, namespace: ref.namespace ?? record.metadata.namespace }));
        listedKinds.add(`${ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : ''} ${ref.kind}`);
      }
    }
    expect(listed.filter((l) => !synthesized.has(l))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    // Everything else is the examples' own: the Gateway, DeviceClasses (cluster-wide, shared by
    // deployments), the controller and its CRDs, the records.
    const unlisted = manifests.filter((m) => !listed.includes(id({ ...m, namespace: m.metadata.namespace, name: m.metadata.name })));
    const own = (m: any) => (m.apiVersion === 'airunway.ai/v1alpha1' && m.kind === 'ModelDeployment')
      || ['Gateway', 'DeviceClass', 'CustomResourceDefinition'].includes(m.kind)
      || m.metadata.labels?.['app.kubernetes.io/part-of'] === 'cdk8s-inference';
    expect(unlisted.filter((m) => !own(m)).map((m) => `${m.example} ${m.kind} ${m.metadata.name}`)).toEqual([]);

    const app = Testing.app();
    new ModelDeploymentController(new Chart(app, 'controller'), 'Controller', { setOwnerReferences: true });
    const role = Testing.synth(app.charts[0]).find((m) => m.kind === 'ClusterRole');
    // The plural of every kind listed here is its lowercase name plus "s".
    const plural = (kind: string) => `${kind.toLowerCase()}s`;
    const may = (group: string, kind: string, verb: string) =>
      role.rules.some((r: any) => r.apiGroups.includes(group) && r.resources.includes(plural(kind)) && r.verbs.includes(verb));
    const missing = [...listedKinds].filter((k) => {
      const [group, kind] = k.split(' ');
      return !may(group, kind, 'get') || !may(group, kind, 'patch');
    });
    expect(missing).toEqual([]);
  });
});
