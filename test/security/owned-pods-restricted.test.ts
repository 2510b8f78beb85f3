import * as fs from 'fs';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { ModelDeploymentController } from '../../src';
import { main } from '../../src/cli/main';
import { movingTagReason } from '../../src/core/image-reference';
import { DEFAULT_ENDPOINT_PICKER_IMAGE } from '../../src/gateway/endpoint-picker';
import { describePodSecurityViolations, podSecurityViolations } from '../../src/security/pod-security-standard';
import { podTemplatesOf } from '../../src/security/pod-templates';
import { DEFAULT_MODEL_DOWNLOAD_IMAGE } from '../../src/storage/model-download-job';
import { addDownloadJobDeployment } from '../support/download-job-deployment';

/*
 * Every pod template of every example, checked with the Pod Security Standards: the pods this
 * library owns (endpoint picker, model download Job, controller) pass "restricted", every pod
 * passes "baseline".
 */

const examplesDir = path.join(__dirname, '..', '..', 'examples');
const tsExamples = fs.readdirSync(examplesDir)
  .filter((f) => f.endsWith('.ts') || fs.existsSync(path.join(examplesDir, f, 'index.ts')))
  .sort();
const yamlExamples = fs.readdirSync(examplesDir).filter((f) => /\.ya?ml$/.test(f)).sort();

function synthesizeApp(app: App): any[] {
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return app.charts.flatMap((chart) => Testing.synth(chart));
}

async function exampleManifests(): Promise<Array<{ example: string; manifests: any[] }>> {
  const out: Array<{ example: string; manifests: any[] }> = [];
  for (const file of tsExamples) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const example = require(path.join(examplesDir, file));
    const app = Testing.app();
    example.build(app);
    out.push({ example: file, manifests: synthesizeApp(app) });
  }
  for (const file of yamlExamples) {
    let stdout = '';
    const code = await main(['synth', '-f', path.join(examplesDir, file)], { stdout: (t) => (stdout += t), stderr: () => undefined });
    expect(code).toBe(0);
    out.push({ example: file, manifests: parseAllDocuments(stdout).map((d) => d.toJS()).filter((m) => m) });
  }
  return out;
}

function downloadJobManifests(): any[] {
  const app = Testing.app();
  addDownloadJobDeployment(app);
  return synthesizeApp(app);
}

type Owned = 'endpoint picker' | 'model download Job' | 'controller';

function ownedBy(manifest: any): Owned | undefined {
  const pod = manifest.spec?.template?.spec;
  if (manifest.kind === 'Job' && manifest.metadata?.labels?.['airunway.ai/job-type'] === 'model-download') return 'model download Job';
  if (manifest.kind === 'Deployment' && manifest.metadata?.name === 'cdk8s-inference-controller') return 'controller';
  if (manifest.kind === 'Deployment' && pod?.containers?.[0]?.name === 'epp'
    && manifest.spec.template.metadata?.labels?.['app.kubernetes.io/name'] === `${manifest.metadata.name}`) return 'endpoint picker';
  return undefined;
}

interface Checked { example: string; object: string; owner?: Owned; path: string; restricted: string; baseline: string }

let checked: Checked[] = [];

beforeAll(async () => {
  const all = [...await exampleManifests(), { example: 'dynamo with a managed model cache', manifests: downloadJobManifests() }];
  checked = all.flatMap(({ example, manifests }) => manifests.flatMap((m) => podTemplatesOf(m).map((t) => ({
    example,
    object: `${m.kind} ${m.metadata?.namespace ?? ''}/${m.metadata?.name}`,
    owner: ownedBy(m),
    path: t.path,
    restricted: describePodSecurityViolations(podSecurityViolations(t.podSpec, 'restricted'), t.path),
    baseline: describePodSecurityViolations(podSecurityViolations(t.podSpec, 'baseline'), t.path),
  }))));
}, 120_000);

describe('pods this library owns pass the Pod Security Standard "restricted"', () => {
  test.each<Owned>(['endpoint picker', 'model download Job', 'controller'])('every %s pod template', (owner) => {
    const mine = checked.filter((c) => c.owner === owner);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.filter((c) => c.restricted !== '').map((c) => `${c.example}: ${c.object}\n${c.restricted}`)).toEqual([]);
  });

  test('their default images are pinned', () => {
    for (const image of [DEFAULT_ENDPOINT_PICKER_IMAGE, DEFAULT_MODEL_DOWNLOAD_IMAGE, ModelDeploymentController.DEFAULT_IMAGE]) {
      expect([image, movingTagReason(image)]).toEqual([image, undefined]);
    }
    const version = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')).version;
    expect(ModelDeploymentController.DEFAULT_IMAGE).toBe(`ghcr.io/cdk8s-inference/controller:${version}`);
  });
});

describe('every pod template of every example passes "baseline"', () => {
  test('checks the pods of many kinds', () => {
    const kinds = new Set(checked.map((c) => c.object.split(' ')[0]));
    for (const kind of ['Deployment', 'Job', 'LeaderWorkerSet', 'DynamoGraphDeployment', 'RayService', 'Workspace', 'ModelServing']) {
      expect([...kinds]).toContain(kind);
    }
  });

  test('no baseline violation', () => {
    expect(checked.filter((c) => c.baseline !== '').map((c) => `${c.example}: ${c.object}\n${c.baseline}`)).toEqual([]);
  });
});
