/**
 * The controller as its image runs it, against a real API server. scripts/check-controller-image.sh
 * installs the packed library the way the Dockerfile does and calls this script with the command
 * that starts that install's entry point (`[setpriv --reuid=65532 ...] node .../bin/cdk8s-inference`):
 *
 *   npx ts-node --project test/tsconfig.json scripts/run-installed-controller.ts KUBECONFIG_FILE -- COMMAND...
 *
 * It starts the envtest control plane (etcd + kube-apiserver on 127.0.0.1, KUBEBUILDER_ASSETS),
 * installs the ModelDeployment CRD, creates one vLLM deployment's record and Deployment as the
 * library synthesizes them, and runs `COMMAND controller --leader-elect ...` with a kubeconfig
 * written to KUBECONFIG_FILE (readable by the unprivileged user). The record must get a status,
 * then say Running once the Deployment reports Available; /healthz and /readyz must answer 200;
 * SIGTERM must end the process with exit 0. What this proves beyond the in-repository tests: the
 * installed package, with production dependencies only, holds everything a reconcile loads (the
 * provider status mappings and the record validation are loaded lazily, on the first record).
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import { App, Chart } from 'cdk8s';
import { EngineType, ModelDeployment } from '../src';
import { modelDeploymentCrd } from '../src/controller-contract/crds';
import { ControlPlane, freePorts } from '../test/envtest/control-plane';
import { KubeObject, waitFor } from '../test/envtest/kube-client';

const NAMESPACE = 'image-check';

async function status(port: number, urlPath: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port, path: urlPath }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', () => resolve(undefined));
  });
}

function synthesized(): KubeObject[] {
  const app = new App();
  new ModelDeployment(new Chart(app, 'check', { namespace: NAMESPACE }), 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    provider: { name: 'vllm' },
    engine: { engineType: EngineType.VLLM },
    resources: { gpu: { count: 1 } },
  });
  return app.charts[0].toJson() as KubeObject[];
}

async function run(kubeconfigFile: string, command: string[]): Promise<void> {
  const cp = await ControlPlane.start();
  let controller: ChildProcess | undefined;
  const logs: string[] = [];
  try {
    const client = cp.client();
    await client.create(modelDeploymentCrd() as KubeObject);
    await waitFor(async () => {
      const crd: any = await client.get({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'modeldeployments.airunway.ai' });
      return (crd.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
    }, 60_000, 'the ModelDeployment CRD');
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    const objects = synthesized();
    const record = objects.find((o) => o.kind === 'ModelDeployment')!;
    const deployment = objects.find((o) => o.kind === 'Deployment')!;
    for (const o of [record, deployment]) await client.create(o);

    cp.writeKubeconfig(undefined, kubeconfigFile);
    fs.chmodSync(kubeconfigFile, 0o644); // a throwaway cluster's token, for the unprivileged user
    const [healthPort] = await freePorts(1);
    controller = spawn(command[0], [
      ...command.slice(1),
      'controller', '--leader-elect', '--leader-election-namespace', NAMESPACE,
      '--kubeconfig', kubeconfigFile, '--namespace', NAMESPACE,
      '--metrics-bind-address', '0', '--health-probe-bind-address', `127.0.0.1:${healthPort}`,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    controller.stderr!.on('data', (c) => logs.push(String(c)));
    const exited = new Promise<number | null>((resolve) => controller!.once('exit', (code) => resolve(code)));
    // A wait ends early, with the exit code, when the controller stops before it.
    const unlessExited = <T>(p: Promise<T>): Promise<T> => Promise.race([
      p,
      exited.then((code) => Promise.reject(new Error(`the controller exited (${code}) before the check ended`))),
    ]);

    const recordRef = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', namespace: NAMESPACE, name: record.metadata!.name! };
    const first = await unlessExited(waitFor(async () => ((await client.get(recordRef)) as any).status?.phase, 60_000, 'a status on the record'));
    await client.patchStatus({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: NAMESPACE, name: deployment.metadata!.name! }, {
      status: { replicas: 1, readyReplicas: 1, availableReplicas: 1, conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok' }] },
    }, 'merge');
    await unlessExited(waitFor(async () => ((await client.get(recordRef)) as any).status?.phase === 'Running', 30_000, 'the record to say Running'));
    const probes = [await status(healthPort, '/healthz'), await status(healthPort, '/readyz')];
    if (probes.some((code) => code !== 200)) throw new Error(`/healthz and /readyz answered ${probes.join(' and ')}`);

    controller.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running 35 s after SIGTERM'), 35_000))]);
    if (code !== 0) throw new Error(`after SIGTERM: exit ${code}`);
    console.log(`installed controller on a real API server: status ${first} then Running, /healthz and /readyz 200, exit 0 on SIGTERM`);
  } catch (e) {
    throw new Error(`${(e as Error).message}\ncontroller log:\n${logs.join('').slice(-4000)}`);
  } finally {
    if (controller && controller.exitCode === null) controller.kill('SIGKILL');
    await cp.stop();
  }
}

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
if (argv.length < 3 || dashes !== 1) {
  console.error('usage: run-installed-controller.ts KUBECONFIG_FILE -- COMMAND...');
  process.exit(2);
}
run(argv[0], argv.slice(2)).then(
  () => process.exit(0),
  (e) => {
    console.error(`check-controller-image: ${(e as Error).message}`);
    process.exit(1);
  },
);
