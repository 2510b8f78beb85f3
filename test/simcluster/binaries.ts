/**
 * Where the simulated cluster's own binaries come from — kube-scheduler, kwok, the KubeRay and
 * KEDA operators, with KWOK's stage configs, the operators' CRDs and the KEDA operator's
 * certificate beside them — on top of the envtest
 * control plane's (test/envtest/binaries.ts: kube-apiserver, kube-controller-manager, etcd).
 *
 * 1. `CDK8S_INFERENCE_SIMCLUSTER_ASSETS`, when set, must name a directory with all of them (the
 *    layout scripts/simcluster/build-binaries.sh writes): a wrong value is an error.
 * 2. Otherwise scripts/simcluster/build-binaries.sh, which prints its cache directory (seconds when
 *    cached; the first time it compiles the four from the Go module proxy).
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
  readonly kedaOperator: string;
  /** KEDA's CRDs of the operator's own version. */
  readonly kedaCrds: string[];
  /** `tls.crt`, `tls.key` and `ca.crt` for the KEDA operator's gRPC metrics service (`--cert-dir`). */
  readonly kedaCertDir: string;
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

function yamlFiles(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => path.join(dir, f)) : [];
}

function inDir(dir: string): SimClusterBinaries {
  return {
    dir,
    kubeScheduler: path.join(dir, 'kube-scheduler'),
    kwok: path.join(dir, 'kwok'),
    kuberayOperator: path.join(dir, 'ray-operator'),
    kwokStages: KWOK_STAGES.map((f) => path.join(dir, 'kwok-stages', f)),
    kuberayCrds: yamlFiles(path.join(dir, 'kuberay-crds')),
    kedaOperator: path.join(dir, 'keda-operator'),
    kedaCrds: yamlFiles(path.join(dir, 'keda-crds')),
    kedaCertDir: path.join(dir, 'keda-certs'),
  };
}

function missing(b: SimClusterBinaries): string[] {
  const out: string[] = [];
  for (const f of [b.kubeScheduler, b.kwok, b.kuberayOperator, b.kedaOperator]) {
    try {
      fs.accessSync(f, fs.constants.X_OK);
    } catch {
      out.push(f);
    }
  }
  for (const f of b.kwokStages) if (!fs.existsSync(f)) out.push(f);
  if (!b.kuberayCrds.some((f) => f.endsWith('ray.io_rayjobs.yaml'))) out.push(path.join(b.dir, 'kuberay-crds', 'ray.io_rayjobs.yaml'));
  if (!b.kedaCrds.some((f) => f.endsWith('keda.sh_scaledobjects.yaml'))) out.push(path.join(b.dir, 'keda-crds', 'keda.sh_scaledobjects.yaml'));
  for (const f of ['tls.crt', 'tls.key', 'ca.crt']) if (!fs.existsSync(path.join(b.kedaCertDir, f))) out.push(path.join(b.kedaCertDir, f));
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
