/**
 * `IncompatibleUpstream` on a real kube-apiserver and etcd (control-plane.ts), with the status
 * controller as a real process (controller-status-process.ts), as the controller construct's
 * ServiceAccount with the construct's RBAC (so the CRD informers' `metadata.name` field
 * selectors are proven to pass `resourceNames`):
 *
 * 1. a cluster on an older Gateway API: its HTTPRoute CRD lacks `spec.rules[].timeouts`, which
 *    the routed deployment's HTTPRoute sets. The API server really drops the field from the
 *    applied route (field validation `Warn`, the default) — what the controller reports as
 *    `ResourceCreated=False` and `Ready=False`, reason `IncompatibleUpstream`, phase `Failed`,
 *    naming kind, apiVersion and field path;
 * 2. the CRD upgraded to the full upstream one: the controller sees the CRD change (its watch)
 *    and the record is no longer marked incompatible — the condition it wrote is removed and
 *    Ready follows the model server again — with AI Runway's newer status fields
 *    (`gatewayName`, `requestRef`, `workloadRef`, `inferencePoolRef` with the live uids) stored by
 *    our CRD.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { ControlPlane, serviceAccountUser } from './control-plane';
import { ensureNamespaces, recordsOf, setStatus, synthesize, upstreamOf } from './controller-status-fixtures';
import { ControllerProcess } from './controller-status-process';
import { installCrds } from './crds';
import { KubeClient, KubeObject } from './kube-client';
import { gateway, GatewayRef, ModelDeployment, ModelDeploymentController, ProviderRegistry } from '../../src';
import { modelDeploymentCrd } from '../../src/controller-contract/crds';
import { upstreamDir } from '../../src/schema-validation/upstream-schemas';
import { HTTP_ROUTE_CRD, INFERENCE_POOL_CRD, upstreamCrd, withoutField } from '../controller/status/upstream-crd-fixtures';
import { deploymentStatuses } from '../support/operator-statuses';
import { statusCondition } from '../support/status-conditions';

const SETUP_TIMEOUT_MS = 45 * 60_000; // the first run on a machine may compile the binaries
const NS = 'models';
const GW_NS = 'gw-system';
const GW_NAME = 'inference-gateway';
const CONTROLLER_NS = 'cdk8s-inference-system';
const CONTROLLER_SA = serviceAccountUser(CONTROLLER_NS, 'cdk8s-inference-controller');
const MD = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment' };
const ROUTE = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', namespace: NS, name: 'qwen' };
const POOL = { apiVersion: 'inference.networking.k8s.io/v1', kind: 'InferencePool', namespace: NS, name: 'qwen' };
const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, name: 'qwen' };

let cp: ControlPlane;
let client: KubeClient;
let ctl: ControllerProcess | undefined;
const report: string[] = [];

/** Writes `crd` (without the metadata a server sets) to a file of the control plane's directory (installCrds reads files). */
function crdFile(name: string, crd: any): string {
  const file = path.join(cp.dir, name);
  const { uid: _uid, resourceVersion: _rv, generation: _generation, ...metadata } = crd.metadata;
  fs.writeFileSync(file, YAML.stringify({ ...crd, metadata }));
  return file;
}

beforeAll(async () => {
  cp = await ControlPlane.start({ users: [CONTROLLER_SA] });
  client = cp.client();
  const older = withoutField(upstreamCrd(HTTP_ROUTE_CRD), 'v1', 'spec.rules[].timeouts');
  await installCrds(client, [
    crdFile('airunway.ai_modeldeployments.controller.yaml', modelDeploymentCrd()),
    crdFile('httproutes-without-timeouts.yaml', older),
    path.join(upstreamDir(), INFERENCE_POOL_CRD),
    path.join(upstreamDir(), 'gateway-api/gateway.networking.k8s.io_gateways.yaml'),
  ]);
  // The construct's ServiceAccount and RBAC, created as synthesized: the controller runs with exactly these rights.
  const chart = Testing.chart();
  new ModelDeploymentController(chart, 'Controller', { installCrds: false, createNamespace: false, namespace: CONTROLLER_NS });
  const rbac = Testing.synth(chart).filter((o) => ['ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(o.kind));
  await ensureNamespaces(client, [CONTROLLER_NS, NS, GW_NS]);
  for (const o of rbac) await client.create(o as KubeObject);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await ctl?.stop();
  await cp?.stop();
  if (report.length > 0) process.stdout.write(`\nIncompatibleUpstream on the API server:\n  ${report.join('\n  ')}\n`);
}, 60_000);

async function record(): Promise<any> {
  return client.get<any>({ ...MD, namespace: NS, name: 'qwen' });
}

test('an older HTTPRoute CRD: IncompatibleUpstream naming kind, apiVersion and field; the full CRD: not incompatible', async () => {
  const objects = synthesize((app) => {
    const infra = new Chart(app, 'gateway', { namespace: GW_NS });
    const gw = new gateway.Gateway(infra, 'Gateway', {
      metadata: { name: GW_NAME },
      spec: { gatewayClassName: 'istio', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
    });
    new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromGateway(gw) });
    new ModelDeployment(new Chart(app, 'models', { namespace: NS }), 'qwen', {
      model: { id: 'Qwen/Qwen3-8B', servedName: 'qwen3-8b' },
      provider: { name: 'vllm' },
      resources: { gpu: { count: 1 } },
    });
  });
  const synthesizedRoute = objects.find((o) => o.kind === 'HTTPRoute')!;
  expect(synthesizedRoute.spec.rules.some((r: any) => r.timeouts !== undefined)).toBe(true);

  // Applied as a GitOps tool would (default field validation): the older CRD silently drops the field.
  for (const o of upstreamOf(objects)) await client.create(o);
  const stored = await client.get<any>(ROUTE);
  expect(stored.spec.rules.map((r: any) => r.timeouts)).toEqual(stored.spec.rules.map(() => undefined));
  await setStatus(client, DEPLOYMENT, deploymentStatuses(1).running);

  ctl = await ControllerProcess.start({ kubeconfig: cp.writeKubeconfig(CONTROLLER_SA.name), name: 'incompatible-upstream', args: [] });
  await ctl.waitReady();
  const t0 = Date.now();
  for (const r of recordsOf(objects)) await client.create(r);

  const failed = await ctl.waitUntil(async () => {
    const r = await record();
    return statusCondition(r, 'ResourceCreated')?.reason === 'IncompatibleUpstream' && r;
  }, 30_000, 'ResourceCreated=False/IncompatibleUpstream');
  report.push(`older HTTPRoute CRD → IncompatibleUpstream in ${Date.now() - t0} ms`);
  expect(failed.status.phase).toBe('Failed');
  for (const type of ['ResourceCreated', 'Ready']) {
    expect(statusCondition(failed, type)).toMatchObject({ status: 'False', reason: 'IncompatibleUpstream' });
  }
  const message: string = statusCondition(failed, 'Ready').message;
  expect(message).toContain('HTTPRoute gateway.networking.k8s.io/v1: the installed CustomResourceDefinition httproutes.gateway.networking.k8s.io has no field spec.rules[].timeouts');
  expect(failed.status.message).toBe(message);

  // The operator (here: the Gateway API CRDs) is upgraded: the CRD's watch brings the change.
  const t1 = Date.now();
  await installCrds(client, [path.join(upstreamDir(), HTTP_ROUTE_CRD)]);
  const fine = await ctl.waitUntil(async () => {
    const r = await record();
    return statusCondition(r, 'ResourceCreated') === undefined && r.status?.phase !== 'Failed' && r;
  }, 30_000, 'the record no longer marked incompatible');
  report.push(`full HTTPRoute CRD installed → not incompatible in ${Date.now() - t1} ms`);
  expect(statusCondition(fine, 'Ready')).toMatchObject({ status: 'True', reason: 'DeploymentReady' });
  expect(fine.status.phase).toBe('Running');

  // AI Runway's newer status fields, kept by our CRD, naming the live objects.
  const uid = async (ref: typeof ROUTE) => (await client.get<any>(ref)).metadata.uid;
  expect(fine.status.gateway).toMatchObject({ gatewayName: GW_NAME, gatewayNamespace: GW_NS });
  expect(fine.status.provider).toMatchObject({
    resourceName: 'qwen',
    resourceKind: 'Deployment',
    requestRef: { ...DEPLOYMENT, uid: await uid(DEPLOYMENT) },
    workloadRef: { ...DEPLOYMENT, uid: await uid(DEPLOYMENT) },
    inferencePoolRef: { ...POOL, uid: await uid(POOL) },
  });
  // The controller read the CRDs through its per-name informers (no 403 on the way).
  expect(ctl.logsMatching(/forbidden|403/i)).toEqual([]);
}, 180_000);
