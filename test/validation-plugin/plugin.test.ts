import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Validation, ValidationContext } from 'cdk8s-cli/plugins';
import { UpstreamSchemaValidation } from '../../src/validation-plugin';

/** What the test uses of cdk8s-cli's PluginManager (lib/plugins/_manager.d.ts). */
interface CdkPluginManager {
  load(options: { pkg: string; version: string; class: string; properties?: Record<string, unknown> }): {
    instance: unknown;
    package: { pkg: string; version: string };
  };
}

// cdk8s-cli exports its plugin types but not the loader `cdk8s synth` uses: load it by its file.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PluginManager: new (dir: string) => CdkPluginManager = require(path.join(path.dirname(require.resolve('cdk8s-cli/package.json')), 'lib', 'plugins', '_manager')).PluginManager;

// cdk8s-cli's own loader and context, with the plugin loaded the way cdk8s.yaml names it
// (a local path); scripts/check-validation-plugin.sh runs it through a real `cdk8s synth`.

const PLUGIN_DIR = path.join(__dirname, '..', '..', 'src', 'validation-plugin');

const VALID = `apiVersion: v1
kind: Service
metadata: {name: chat}
spec:
  selector: {app: chat}
  ports: [{port: 80, targetPort: 8000}]
`;

const INVALID = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat
  labels: {app: "not valid!"}
spec:
  selector: {matchLabels: {app: chat}}
  template:
    metadata: {labels: {app: chat}}
    spec:
      containers: [{name: server, image: vllm/vllm-openai:v0.10.0, imagePullPolcy: Always}]
`;

const WIDGET = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
`;

let dir = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'validation-plugin-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function manifest(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Load the plugin with cdk8s-cli's PluginManager and run it on the manifests. */
async function runPlugin(manifests: string[], properties: Record<string, unknown> = {}): Promise<ValidationContext> {
  const loaded = new PluginManager(path.join(dir, 'plugins')).load({ pkg: PLUGIN_DIR, version: '1.0.0', class: 'UpstreamSchemaValidation', properties });
  const plugin = loaded.instance as Validation;
  const context = new ValidationContext(manifests, loaded.package.pkg, loaded.package.version);
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    await plugin.validate(context);
  } finally {
    log.mockRestore();
  }
  return context;
}

describe('cdk8s validation plugin UpstreamSchemaValidation', () => {
  test('is a cdk8s-cli Validation that accepts its ValidationContext (checked by the compiler)', async () => {
    const plugin: Validation = new UpstreamSchemaValidation();
    const context = new ValidationContext([manifest('ok.k8s.yaml', VALID)], 'cdk8s-inference', '1.0.0');
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await plugin.validate(context);
    expect(context.report.success).toBe(true);
  });

  test('valid manifests pass', async () => {
    const context = await runPlugin([manifest('ok.k8s.yaml', VALID)]);
    expect(context.report.toJson().summary).toMatchObject({ status: 'success', metadata: { objects: '1', invalid: '0', skipped: '0' } });
    expect(context.report.toJson().violations).toEqual([]);
  });

  test('an invalid object fails the report with every problem as a location', async () => {
    const file = manifest('app.k8s.yaml', `${VALID}---\n${INVALID}`);
    const context = await runPlugin([file]);
    const report = context.report.toJson();
    expect(report.summary.status).toBe('failure');
    expect(report.violations).toEqual([{
      ruleName: 'Deployment/chat must match the upstream schema of apps/v1 Deployment',
      recommendation: `${file}[doc 2]: 2 problem(s), listed as field path: problem (cdk8s-inference validate -f ${file} reports the same)`,
      fix: expect.stringContaining('an unknown field would be dropped by the API server'),
      violatingConstructs: [{
        resourceName: 'chat',
        manifestPath: file,
        constructPath: undefined,
        locations: [
          expect.stringMatching(/^metadata\.labels\.app: label value "not valid!" is invalid/),
          'spec.template.spec.containers[0].imagePullPolcy: unknown field (not in the upstream schema; the API server would drop it)',
        ],
      }],
    }]);
    expect(context.report.toString()).toContain('spec.template.spec.containers[0].imagePullPolcy: unknown field');
  });

  test('a kind without a schema fails, unless skipUnknownKinds', async () => {
    const file = manifest('widget.k8s.yaml', WIDGET);
    const strict = (await runPlugin([file])).report.toJson();
    expect(strict.summary.status).toBe('failure');
    expect(strict.violations[0].violatingConstructs[0].locations[0]).toMatch(/^\(root\): unknown kind: no schema for apiVersion "example.com\/v1", kind "Widget"; known API groups: .* \(properties: \{skipUnknownKinds: true\} skips objects of kinds without a schema\)$/);
    const lenient = (await runPlugin([file], { skipUnknownKinds: true })).report.toJson();
    expect(lenient.summary).toMatchObject({ status: 'success', metadata: { objects: '1', invalid: '0', skipped: '1' } });
  });

  test('unknown or mistyped properties are refused when cdk8s loads the plugin', () => {
    expect(() => new PluginManager(dir).load({ pkg: PLUGIN_DIR, version: '1.0.0', class: 'UpstreamSchemaValidation', properties: { skipUnknownKind: true } }))
      .toThrow('UpstreamSchemaValidation: unknown properties "skipUnknownKind"; known: skipUnknownKinds');
    expect(() => new UpstreamSchemaValidation({ skipUnknownKinds: 'yes' as any }))
      .toThrow('UpstreamSchemaValidation: properties.skipUnknownKinds must be true or false, got "yes"');
  });

  test('an unreadable manifest fails the report', async () => {
    const context = await runPlugin([manifest('broken.k8s.yaml', 'a: [unclosed\n')]);
    expect(context.report.toJson().summary.status).toBe('failure');
    expect(context.report.toJson().violations[0].ruleName).toBe('readable YAML');
  });
});
