/**
 * Where the simulated cluster's own binaries come from — kube-scheduler, kwok and the KubeRay
 * operator, with KWOK's stage configs and KubeRay's CRDs beside them — on top of the envtest
 * control plane's (test/envtest/binaries.ts: kube-apiserver, kube-controller-manager, etcd).
 *
 * 1. `CDK8S_INFERENCE_SIMCLUSTER_ASSETS`, when set, must name a directory with all of them (the
 *    layout scripts/simcluster/build-binaries.sh writes): a wrong value is an error.
 * 2. Otherwise scripts/simcluster/build-binaries.sh, which prints its cache directory (seconds when
 *    cached; the first time it compiles the three from the Go module proxy).
 *
 * Never a skip: without them the tests fail with the reason and the command that builds them.
 */
import * as fs from 'fs';
import * as path from 'path';
import { runBuildScript } from '../envtest/binaries';

export interface SimClusterBinaries {
  readonly dir: string;
  readonly kubeScheduler: string;
  readonly kwok: string;
  readonly kuberayOperator: string;
  /** KWOK's stage configs, passed to kwok with `--config`. */
  readonly kwokStages: string[];
  /** KubeRay's CRDs of the operator's own version (`ray.io_*.yaml`). */
  readonly kuberayCrds: string[];
}

export const SIMCLUSTER_ASSETS_ENV = 'CDK8S_INFERENCE_SIMCLUSTER_ASSETS';
export const SIMCLUSTER_BUILD_SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'simcluster', 'build-binaries.sh');

const KWOK_STAGES = ['node-initialize.yaml', 'node-heartbeat-with-lease.yaml', 'pod-ready.yaml', 'pod-complete.yaml', 'pod-delete.yaml'];

let cached: Promise<SimClusterBinaries> | undefined;

/** The binaries, located (or built) once per process. Rejects with the reason when they cannot be had. */
export function simClusterBinaries(): Promise<SimClusterBinaries> {
  cached ??= locate();
  cached.catch(() => (cached = undefined));
  return cached;
}

function inDir(dir: string): SimClusterBinaries {
  const crdDir = path.join(dir, 'kuberay-crds');
  return {
    dir,
    kubeScheduler: path.join(dir, 'kube-scheduler'),
    kwok: path.join(dir, 'kwok'),
    kuberayOperator: path.join(dir, 'ray-operator'),
    kwokStages: KWOK_STAGES.map((f) => path.join(dir, 'kwok-stages', f)),
    kuberayCrds: fs.existsSync(crdDir) ? fs.readdirSync(crdDir).filter((f) => f.endsWith('.yaml')).sort().map((f) => path.join(crdDir, f)) : [],
  };
}

function missing(b: SimClusterBinaries): string[] {
  const out: string[] = [];
  for (const f of [b.kubeScheduler, b.kwok, b.kuberayOperator]) {
    try {
      fs.accessSync(f, fs.constants.X_OK);
    } catch {
      out.push(f);
    }
  }
  for (const f of b.kwokStages) if (!fs.existsSync(f)) out.push(f);
  if (!b.kuberayCrds.some((f) => f.endsWith('ray.io_rayjobs.yaml'))) out.push(path.join(b.dir, 'kuberay-crds', 'ray.io_rayjobs.yaml'));
  return out;
}

async function locate(): Promise<SimClusterBinaries> {
  const fromEnv = process.env[SIMCLUSTER_ASSETS_ENV];
  const dir = fromEnv
    ? path.resolve(fromEnv)
    : await runBuildScript(SIMCLUSTER_BUILD_SCRIPT, 'simulated-cluster binaries',
      'run `bash scripts/simcluster/build-binaries.sh` (after scripts/envtest/build-binaries.sh: they share the Go build cache), ' +
      `or set ${SIMCLUSTER_ASSETS_ENV} to the directory it prints`);
  const b = inDir(dir);
  const absent = missing(b);
  if (absent.length > 0) {
    throw new Error(`${fromEnv ? `${SIMCLUSTER_ASSETS_ENV}=${fromEnv}` : `${SIMCLUSTER_BUILD_SCRIPT} printed ${dir}, which`} lacks ${absent.join(', ')}` +
      ' (bash scripts/simcluster/build-binaries.sh builds them)');
  }
  return b;
}
