import * as fs from 'fs';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
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
});
