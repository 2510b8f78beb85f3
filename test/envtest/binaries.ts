/**
 * Where the envtest binaries (`kube-apiserver`, `etcd`) come from.
 *
 * 1. `KUBEBUILDER_ASSETS`, the variable every envtest setup honours (controller-runtime's
 *    `setup-envtest use -p path` prints it). When it is set it must name a directory holding both
 *    binaries: a wrong value is an error, not a silent fallback.
 * 2. Otherwise `scripts/envtest/build-binaries.sh`, which prints the directory of its cache
 *    (seconds when cached, 15–35 minutes the first time on 2 cores: it compiles both from the Go
 *    module proxy).
 *
 * Never a skip: a test that needs a control plane fails with the reason the binaries could not be
 * had.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** Paths of the binaries of a control plane. */
export interface EnvtestBinaries {
  /** The directory that holds them (the `KUBEBUILDER_ASSETS` layout). */
  readonly dir: string;
  readonly kubeApiserver: string;
  readonly etcd: string;
  /**
   * For the garbage collector (`ControlPlane.startGarbageCollector`); checked when started, since
   * the layout setup-envtest downloads has none and every other test runs without it.
   */
  readonly kubeControllerManager: string;
}

export const KUBEBUILDER_ASSETS_ENV = 'KUBEBUILDER_ASSETS';

/** scripts/envtest/build-binaries.sh, from this file. */
export const BUILD_SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'envtest', 'build-binaries.sh');

let cached: Promise<EnvtestBinaries> | undefined;

/** The binaries, located (or built) once per process. Rejects with the reason when they cannot be had. */
export function envtestBinaries(): Promise<EnvtestBinaries> {
  cached ??= locate();
  // A failed attempt is not cached: a later call tries again.
  cached.catch(() => (cached = undefined));
  return cached;
}

function inDir(dir: string): EnvtestBinaries {
  return { dir, kubeApiserver: path.join(dir, 'kube-apiserver'), etcd: path.join(dir, 'etcd'), kubeControllerManager: path.join(dir, 'kube-controller-manager') };
}

function missing(b: EnvtestBinaries): string[] {
  return [b.kubeApiserver, b.etcd].filter((f) => {
    try {
      fs.accessSync(f, fs.constants.X_OK);
      return false;
    } catch {
      return true;
    }
  });
}

async function locate(): Promise<EnvtestBinaries> {
  const fromEnv = process.env[KUBEBUILDER_ASSETS_ENV];
  if (fromEnv) {
    const b = inDir(path.resolve(fromEnv));
    const absent = missing(b);
    if (absent.length > 0) {
      throw new Error(`${KUBEBUILDER_ASSETS_ENV}=${fromEnv} does not hold executable envtest binaries: missing ${absent.join(', ')}`);
    }
    return b;
  }
  const dir = await runBuildScript(BUILD_SCRIPT, 'envtest binaries', `set ${KUBEBUILDER_ASSETS_ENV} to a directory with kube-apiserver and etcd to skip the build`);
  const b = inDir(dir);
  const absent = missing(b);
  if (absent.length > 0) {
    throw new Error(`${BUILD_SCRIPT} printed ${dir}, which lacks ${absent.join(', ')}`);
  }
  return b;
}

/**
 * Runs a build-binaries.sh (this one's, or another harness's: test/simcluster) and returns the
 * directory it prints on its last line of stdout. A failure says `<what> unavailable` and `hint`
 * (how to skip the build).
 */
export function runBuildScript(script: string, what: string, hint: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', (e) => reject(new Error(`cannot run ${script}: ${e.message}`)));
    child.on('close', (code, signal) => {
      const dir = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && dir) {
        resolve(dir);
      } else {
        const tail = stderr.trim().split('\n').slice(-20).join('\n');
        reject(new Error(`${what} unavailable: ${script} exited with ${signal ?? code} (${hint})\n${tail}`));
      }
    });
  });
}
