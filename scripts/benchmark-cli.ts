/**
 * CLI benchmark (a script, not a test): whole `cdk8s-inference synth` processes, as users and CI
 * run them, against the compiled library (lib/, via bin/cdk8s-inference). Prints its figures.
 *
 *   npx projen bench          # compiles, runs the library benchmark, then this script
 *
 * 1. Fleet: one YAML file of 1,000 ModelDeployments over the five translated providers, through
 *    `synth -f FILE` (YAML to stdout): median wall time and peak RSS of the whole process.
 * 2. The floors, measured in the same run: a process that only parses the same input and writes
 *    the same output objects, once with the `yaml` package and once with `js-yaml`, and the
 *    js-yaml one with cdk8s holding and rendering the objects in between, the least any CLI
 *    built on cdk8s constructs does (scripts/bench/yaml-floor.js). The fleet's ratios to the
 *    js-yaml and cdk8s floors are printed.
 * 3. One model, cold: `synth -f examples/airunway-modeldeployment.yaml`.
 * 4. Growth: fleets of 1,000 to 10,000 deployments, one process each, with the time per 1,000, so
 *    that anything quadratic shows.
 *
 * Environment: BENCH_CLI_RUNS (default 7) runs per median; BENCH_GROWTH (default
 * 1000,2000,4000,10000) the growth sizes.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as jsYaml from 'js-yaml';

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-inference');
const MAX_RSS = path.join(__dirname, 'bench', 'max-rss.js');
const FLOOR = path.join(__dirname, 'bench', 'yaml-floor.js');
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 7);
const GROWTH = (process.env.BENCH_GROWTH ?? '1000,2000,4000,10000').split(',').map(Number);
const FLEET_SIZE = 1000;

/** One ModelDeployment spec per provider path and serving shape; a fleet cycles through them. */
const SHAPES: Array<(i: number) => object> = [
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'vllm' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }),
  (i) => ({ model: { id: `meta-llama/Llama-${i}` }, provider: { name: 'vllm' }, engine: { type: 'vllm', contextLength: 8192, args: { 'max-num-seqs': '64' } }, resources: { gpu: { count: 4 } } }),
  (i) => ({ model: { id: `microsoft/phi-${i}` }, provider: { name: 'kaito' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }),
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }),
  (i) => ({
    model: { id: `Qwen/Qwen3-${i}` },
    provider: { name: 'dynamo' },
    engine: { type: 'sglang' },
    serving: { mode: 'disaggregated' },
    scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 1 } } },
  }),
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'kuberay' }, engine: { type: 'vllm' }, resources: { gpu: { count: 2 } } }),
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'llmd' }, engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } }),
  (i) => ({
    model: { id: `Qwen/Qwen3-${i}` },
    provider: { name: 'llmd' },
    engine: { type: 'vllm' },
    serving: { mode: 'disaggregated' },
    scaling: { prefill: { gpu: { count: 2 } }, decode: { gpu: { count: 2 } } },
  }),
];

/** A YAML file of `n` ModelDeployments. */
function fleetYaml(n: number): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    const doc = { apiVersion: 'airunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: `m${i}`, namespace: 'bench' }, spec: SHAPES[i % SHAPES.length](i) };
    docs.push(jsYaml.dump(doc));
  }
  return docs.join('---\n');
}

interface ProcessRun {
  readonly ms: number;
  readonly maxRssMiB: number;
  readonly stdoutBytes: number;
}

/** Runs `node -r max-rss.js ARGS` with stdout to `stdoutFile`; throws unless it exits 0. */
function runProcess(args: string[], stdoutFile: string): ProcessRun {
  const rssFile = path.join(os.tmpdir(), `bench-rss-${process.pid}`);
  const out = fs.openSync(stdoutFile, 'w');
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', MAX_RSS, ...args], { stdio: ['ignore', out, 'pipe'], env: { ...process.env, BENCH_MAX_RSS_FILE: rssFile }, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  fs.closeSync(out);
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
  const maxRssMiB = Number(fs.readFileSync(rssFile, 'utf8')) / 1024;
  fs.rmSync(rssFile, { force: true });
  return { ms, maxRssMiB, stdoutBytes: fs.statSync(stdoutFile).size };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function medianOf(runs: ProcessRun[]): { ms: number; maxRssMiB: number; min: number; max: number } {
  const ms = runs.map((r) => r.ms);
  return { ms: median(ms), maxRssMiB: Math.max(...runs.map((r) => r.maxRssMiB)), min: Math.min(...ms), max: Math.max(...ms) };
}

function main(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cli-'));
  try {
    const fleetFile = path.join(dir, `fleet-${FLEET_SIZE}.yaml`);
    fs.writeFileSync(fleetFile, fleetYaml(FLEET_SIZE));
    const outFile = path.join(dir, 'out.yaml');
    const synth = (file: string): string[] => [BIN, 'synth', '-f', file];

    // The output objects, for the floors to write.
    runProcess(synth(fleetFile), outFile);
    const objects = jsYaml.loadAll(fs.readFileSync(outFile, 'utf8')).filter((o) => o);
    const objectsFile = path.join(dir, 'objects.json');
    fs.writeFileSync(objectsFile, JSON.stringify(objects));
    console.log(`node ${process.version}; fleet: ${FLEET_SIZE} ModelDeployments (${(fs.statSync(fleetFile).size / 1e6).toFixed(2)} MB of YAML) ` +
      `→ ${objects.length} objects (${(fs.statSync(outFile).size / 1e6).toFixed(2)} MB of YAML); medians of ${RUNS} whole processes`);

    // Interleaved, so that a slow spell of the machine weighs on all three alike.
    const fleet: ProcessRun[] = [];
    const yamlFloor: ProcessRun[] = [];
    const jsYamlFloor: ProcessRun[] = [];
    const cdk8sFloor: ProcessRun[] = [];
    for (let i = 0; i < RUNS; i++) {
      fleet.push(runProcess(synth(fleetFile), outFile));
      yamlFloor.push(runProcess([FLOOR, 'yaml', fleetFile, objectsFile], path.join(dir, 'floor.yaml')));
      jsYamlFloor.push(runProcess([FLOOR, 'js-yaml', fleetFile, objectsFile], path.join(dir, 'floor.yaml')));
      cdk8sFloor.push(runProcess([FLOOR, 'cdk8s', fleetFile, objectsFile], path.join(dir, 'floor.yaml')));
    }
    const f = medianOf(fleet);
    const fy = medianOf(yamlFloor);
    const fj = medianOf(jsYamlFloor);
    const fc = medianOf(cdk8sFloor);
    console.log(`fleet synth -f (1,000)      median ${f.ms.toFixed(0)} ms (min ${f.min.toFixed(0)}, max ${f.max.toFixed(0)}), peak RSS ${f.maxRssMiB.toFixed(0)} MiB`);
    console.log(`floor: yaml parse + write    median ${fy.ms.toFixed(0)} ms, peak RSS ${fy.maxRssMiB.toFixed(0)} MiB`);
    console.log(`floor: js-yaml parse + write median ${fj.ms.toFixed(0)} ms, peak RSS ${fj.maxRssMiB.toFixed(0)} MiB`);
    console.log(`floor: js-yaml + cdk8s holding and rendering the objects median ${fc.ms.toFixed(0)} ms, peak RSS ${fc.maxRssMiB.toFixed(0)} MiB`);
    console.log(`ratio fleet / js-yaml floor  ${(f.ms / fj.ms).toFixed(2)}; fleet / cdk8s floor ${(f.ms / fc.ms).toFixed(2)}`);

    const example = path.join(ROOT, 'examples', 'airunway-modeldeployment.yaml');
    const one = medianOf(Array.from({ length: Math.max(RUNS, 9) }, () => runProcess(synth(example), outFile)));
    console.log(`one model, cold (synth -f examples/airunway-modeldeployment.yaml) median ${one.ms.toFixed(0)} ms (min ${one.min.toFixed(0)}, max ${one.max.toFixed(0)}), peak RSS ${one.maxRssMiB.toFixed(0)} MiB`);

    console.log('growth (one process each):');
    for (const n of GROWTH) {
      const file = path.join(dir, `fleet-${n}.yaml`);
      fs.writeFileSync(file, fleetYaml(n));
      const r = runProcess(synth(file), outFile);
      fs.rmSync(file);
      console.log(`  ${String(n).padStart(6)} deployments: ${r.ms.toFixed(0).padStart(6)} ms, ${(r.ms / (n / 1000)).toFixed(0).padStart(5)} ms per 1,000, peak RSS ${r.maxRssMiB.toFixed(0)} MiB, ${(r.stdoutBytes / 1e6).toFixed(1)} MB out`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
