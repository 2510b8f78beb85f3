/**
 * The controller keeps the records of the other seed systems' targets true on a real API server
 * (issue 10, point 5): a Kthena ModelServing, a FlexInfer Model and a modelplane ModelDeployment
 * (a Crossplane XR, installed as the CRD Crossplane derives from its XRD; crds.ts), each created
 * from a record synthesized by the real construct, with the statuses their operators write
 * (test/support/operator-statuses.ts) set through the status subresource. modelplane's object has
 * the kind name of our own record, `ModelDeployment`, in another group: the controller must tell
 * them apart.
 *
 * Never skipped: without binaries the setup fails with the reason (binaries.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { ControlPlane } from './control-plane';
import { createAll, ensureNamespaces, recordsOf, setStatus, synthesize, upstreamOf } from './controller-status-fixtures';
import { ControllerProcess } from './controller-status-process';
import { installCrds } from './crds';
import { KubeClient, waitFor } from './kube-client';
import { ModelDeployment, ModelDeploymentProps } from '../../src';
import { modelDeploymentCrd } from '../../src/controller-contract/crds';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { flexInferModelStatuses, modelplaneStatuses, modelServingStatuses, UpstreamStatuses } from '../support/operator-statuses';

const SETUP_TIMEOUT_MS = 45 * 60_000;
const NS = 'seed-targets';
const MD = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment' };

interface SeedCase {
  readonly name: string;
  readonly props: ModelDeploymentProps;
  readonly source: { readonly apiVersion: string; readonly kind: string };
  readonly statuses: UpstreamStatuses;
  /** The record's phase at each stage (Kthena reports no failure: a failing group is progressing again). */
  readonly phases: Record<keyof UpstreamStatuses, string>;
  /** `status.endpoint.service` once Running; undefined where the target serves elsewhere (modelplane). */
  readonly endpoint?: string;
}

const gpu = { gpu: { count: 1 } };
const CASES: SeedCase[] = [
  {
    name: 'kthena-qwen',
    props: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'kthena' }, resources: gpu },
    source: { apiVersion: 'workload.serving.volcano.sh/v1alpha1', kind: 'ModelServing' },
    statuses: modelServingStatuses(1),
    phases: { deploying: 'Deploying', running: 'Running', failed: 'Deploying' },
    endpoint: 'kthena-qwen',
  },
  {
    name: 'flexinfer-qwen',
    props: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'flexinfer' }, resources: gpu },
    source: { apiVersion: 'ai.flexinfer/v1alpha2', kind: 'Model' },
    statuses: flexInferModelStatuses('flexinfer-qwen', NS),
    phases: { deploying: 'Deploying', running: 'Running', failed: 'Failed' },
    endpoint: 'flexinfer-qwen',
  },
  {
    name: 'modelplane-qwen',
    props: { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'modelplane' }, resources: gpu },
    source: { apiVersion: 'modelplane.ai/v1alpha1', kind: 'ModelDeployment' },
    statuses: modelplaneStatuses(1),
    phases: { deploying: 'Deploying', running: 'Running', failed: 'Failed' },
  },
];

let cp: ControlPlane;
let client: KubeClient;
let controller: ControllerProcess | undefined;

beforeAll(async () => {
  cp = await ControlPlane.start();
  client = cp.client();
  const recordCrd = path.join(cp.dir, 'airunway.ai_modeldeployments.controller.yaml');
  fs.writeFileSync(recordCrd, YAML.stringify(modelDeploymentCrd()));
  const upstream = upstreamDir();
  // Every kind the controller reads, installed before it starts (an informer finds a kind
  // installed later only at its next "absent" retry, a minute on).
  await installCrds(client, [
    recordCrd,
    ...[
      'kthena/workload.serving.volcano.sh_modelservings.yaml',
      'kthena/networking.serving.volcano.sh_modelservers.yaml',
      'kthena/networking.serving.volcano.sh_modelroutes.yaml',
      'flexinfer/ai.flexinfer_models.yaml',
      'modelplane/apis/modeldeployments/definition.yaml',
      'modelplane/apis/modelcaches/definition.yaml',
    ].map((f) => path.join(upstream, f)),
  ]);
  await ensureNamespaces(client, [NS]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await controller?.stop();
  await cp?.stop();
}, 60_000);

/** The records of the namespace by name, once every one satisfies `want`. */
async function recordsWhen(want: (c: SeedCase, record: any) => boolean, what: string): Promise<Map<string, any>> {
  return waitFor(async () => {
    const list = await client.list<any>({ ...MD, namespace: NS });
    const byName = new Map(list.items.map((r) => [r.metadata.name, r]));
    const pending = CASES.filter((c) => !want(c, byName.get(c.name)));
    return pending.length === 0 ? byName : false;
  }, 30_000, what);
}

test('records of Kthena, FlexInfer and modelplane follow their upstream objects: Deploying, Running (with replicas and endpoint), Failed', async () => {
  const objects = synthesize((app) => {
    const chart = new Chart(app, NS, { namespace: NS });
    for (const c of CASES) new ModelDeployment(chart, c.name, { ...c.props, metadata: { name: c.name } });
  });
  // The modelplane object shares our record's kind: only the airunway.ai ones are records.
  expect(recordsOf(objects).map((r) => r.metadata!.name).sort()).toEqual(CASES.map((c) => c.name).sort());
  await createAll(client, objects);
  expect(upstreamOf(objects).length).toBeGreaterThan(CASES.length);

  const args = ['--namespace', NS, '--sync-period', '2s'];
  controller = await ControllerProcess.start({ kubeconfig: cp.writeKubeconfig(), name: 'seed-targets', args });
  await controller.waitReady();

  const phase = (r: any) => r?.status?.phase;
  let now = await recordsWhen((_c, r) => phase(r) === 'Deploying' && /created/.test(r.status.message ?? ''), 'records Deploying, upstream created');
  for (const c of CASES) {
    expect(now.get(c.name).status.provider).toMatchObject({ name: c.props.provider!.name, resourceKind: c.source.kind, resourceName: c.name });
  }

  for (const stage of ['deploying', 'running', 'failed', 'running'] as const) {
    for (const c of CASES) await setStatus(client, { ...c.source, namespace: NS, name: c.name }, c.statuses[stage]);
    now = await recordsWhen((c, r) => phase(r) === c.phases[stage], `records after the operators report ${stage}`);
    if (stage === 'running') {
      for (const c of CASES) {
        const r = now.get(c.name);
        expect({ name: c.name, ready: r.status.replicas?.ready, endpoint: r.status.endpoint?.service })
          .toEqual({ name: c.name, ready: 1, endpoint: c.endpoint });
      }
    }
  }
  // The records are the only ModelDeployments the controller wrote: modelplane's has no record status.
  const xr = await client.get<any>({ apiVersion: 'modelplane.ai/v1alpha1', kind: 'ModelDeployment', namespace: NS, name: 'modelplane-qwen' });
  expect(xr.status).toEqual(CASES[2].statuses.running);
}, 300_000);
