/**
 * The test control plane (test/envtest/control-plane.ts: etcd + kube-apiserver on 127.0.0.1) from
 * the command line.
 *
 *   npx ts-node --project test/tsconfig.json scripts/envtest/control-plane.ts
 *       starts it, writes an admin kubeconfig and prints `export KUBECONFIG=...` (for kubectl or a
 *       controller run by hand); Ctrl-C stops it and removes its temp dir.
 *   npx ts-node --project test/tsconfig.json scripts/envtest/control-plane.ts --measure 3
 *       starts and stops it 3 times and prints each start time and the median.
 *
 * Binaries: KUBEBUILDER_ASSETS, else scripts/envtest/build-binaries.sh (see test/envtest/binaries.ts).
 */
import { envtestBinaries } from '../../test/envtest/binaries';
import { ControlPlane } from '../../test/envtest/control-plane';

async function measure(runs: number): Promise<void> {
  const binaries = await envtestBinaries();
  const totals: number[] = [];
  for (let i = 0; i < runs; i++) {
    const cp = await ControlPlane.start({ binaries });
    const t = cp.startTimings;
    const s0 = Date.now();
    await cp.stop();
    console.log(`run ${i + 1}: start ${t.totalMs} ms (etcd ${t.etcdMs} ms, kube-apiserver ${t.apiServerMs} ms), stop ${Date.now() - s0} ms`);
    totals.push(t.totalMs);
  }
  const sorted = [...totals].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(`median start of ${runs}: ${median} ms (binaries in ${binaries.dir})`);
}

async function serve(): Promise<void> {
  const cp = await ControlPlane.start();
  const kubeconfig = cp.writeKubeconfig();
  console.log(`control plane up in ${cp.startTimings.totalMs} ms at ${cp.baseUrl} (dir ${cp.dir})`);
  console.log(`export KUBECONFIG=${kubeconfig}`);
  console.log('Ctrl-C stops it.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await cp.stop();
}

const i = process.argv.indexOf('--measure');
const run = i >= 0 ? measure(Number(process.argv[i + 1] ?? 3)) : serve();
run.catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
