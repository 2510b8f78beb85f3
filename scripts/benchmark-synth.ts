/**
 * Synth benchmark (a script, not a test): prints its figures.
 *
 *   npx projen bench            # compiles, then runs this script against lib/
 *
 * 1. Fleet: 1,000 ModelDeployments spread over every translated provider and serving shape, built
 *    and synthesized in one process (construct + validate + toJson + YAML), repeated; prints the
 *    median deployments/s and objects/s, peak RSS, and the ratio of our synth time to a bare YAML
 *    serialisation of the same output objects in the same process (the floor).
 * 2. Cold start: a fresh `node` process that loads the library and synthesizes one small app,
 *    repeated; prints the median wall time.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { App, Chart, Yaml } from 'cdk8s';
// Measured against the compiled library, as users run it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lib = require(path.join(__dirname, '..', 'lib'));

const FLEET_SIZE = Number(process.env.BENCH_FLEET_SIZE ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 7);

/** One deployment shape per provider path; the fleet cycles through them. */
const SHAPES: Array<(i: number) => any> = [
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } }),
  (i) => ({ model: { id: `meta-llama/Llama-${i}` }, provider: { name: 'vllm' }, resources: { gpu: { count: 4 } }, engine: { contextLength: 8192, args: { 'max-num-seqs': '64' } } }),
  (i) => ({ model: { source: lib.ModelSource.CUSTOM }, engine: { image: `ghcr.io/kaito-project/aikit/m${i}:1b` }, provider: { name: 'kaito' }, gateway: { modelName: `m${i}` } }),
  (i) => ({ model: { id: `microsoft/phi-${i}` }, provider: { name: 'kaito' }, engine: { engineType: lib.EngineType.VLLM }, resources: { gpu: { count: 1 } } }),
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'dynamo' }, engine: { engineType: lib.EngineType.VLLM }, resources: { gpu: { count: 1 } } }),
  (i) => ({
    model: { id: `Qwen/Qwen3-${i}` },
    provider: { name: 'dynamo' },
    engine: { engineType: lib.EngineType.SGLANG },
    servingMode: lib.ServingMode.DISAGGREGATED,
    scaling: { prefill: { replicas: 1, gpu: { count: 1 } }, decode: { replicas: 2, gpu: { count: 1 } } },
  }),
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'kuberay' }, engine: { engineType: lib.EngineType.VLLM }, resources: { gpu: { count: 2 } } }),
  (i) => ({ model: { id: `Qwen/Qwen3-${i}` }, provider: { name: 'llmd' }, engine: { engineType: lib.EngineType.VLLM }, resources: { gpu: { count: 1 } } }),
  (i) => ({
    model: { id: `Qwen/Qwen3-${i}` },
    provider: { name: 'llmd' },
    engine: { engineType: lib.EngineType.VLLM },
    servingMode: lib.ServingMode.DISAGGREGATED,
    scaling: { prefill: { gpu: { count: 2 } }, decode: { gpu: { count: 2 } } },
  }),
];

/** Shapes whose provider is translated by this build (others would fail the synth). */
function translatedShapes(): Array<(i: number) => any> {
  const app = new App();
  const registry = new lib.ProviderRegistry(app, 'Providers');
  return SHAPES.filter((shape) => registry.tryGetProvider(shape(0).provider.name) !== undefined);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function fleetRun(shapes: Array<(i: number) => any>, routed: boolean): { synthMs: number; floorMs: number; objects: number } {
  const start = process.hrtime.bigint();
  const app = new App();
  // Routed: every deployment also gets its InferencePool, endpoint picker and HTTPRoute.
  new lib.ProviderRegistry(app, 'Providers', routed ? { gateway: lib.GatewayRef.fromName('inference-gateway', 'gateway-system') } : {});
  const chart = new Chart(app, 'fleet', { namespace: 'bench' });
  for (let i = 0; i < FLEET_SIZE; i++) {
    new lib.ModelDeployment(chart, `m${i}`, shapes[i % shapes.length](i));
  }
  const yaml = app.synthYaml(); // validate + toJson + YAML, without touching the disk
  const synthMs = Number(process.hrtime.bigint() - start) / 1e6;

  // The floor: serialising the very same objects, already built, to YAML.
  const objects = app.charts.flatMap((c) => c.toJson());
  const floorStart = process.hrtime.bigint();
  const floorYaml = Yaml.stringify(...objects);
  const floorMs = Number(process.hrtime.bigint() - floorStart) / 1e6;
  if (floorYaml.length !== yaml.length) throw new Error('floor and synth produced different YAML');
  return { synthMs, floorMs, objects: objects.length };
}

function coldStartMs(): number {
  const script = `
    const { App, Chart } = require('cdk8s');
    const { ModelDeployment } = require(${JSON.stringify(path.join(__dirname, '..', 'lib'))});
    const app = new App();
    new ModelDeployment(new Chart(app, 'llm'), 'qwen', { model: { id: 'Qwen/Qwen3-0.6B' }, provider: { name: 'vllm' }, resources: { gpu: { count: 1 } } });
    process.stdout.write(String(app.synthYaml().length));`;
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`cold start failed: ${r.stderr}`);
  return ms;
}

function main(): void {
  const shapes = translatedShapes();
  const providers = [...new Set(shapes.map((s) => s(0).provider.name))].sort();
  console.log(`node ${process.version}, ${FLEET_SIZE} deployments over ${providers.join(', ')} (${shapes.length} shapes), ${RUNS} runs`);

  for (const routed of [false, true]) {
    fleetRun(shapes, routed); // warm-up: module loading and CEL/ajv caches belong to the cold-start figure
    const runs = Array.from({ length: RUNS }, () => fleetRun(shapes, routed));
    const synthMs = median(runs.map((r) => r.synthMs));
    const floorMs = median(runs.map((r) => r.floorMs));
    const objects = runs[0].objects;
    console.log(routed ? 'with gateway routing:' : 'without gateway routing:');
    console.log(`  fleet synth     median ${synthMs.toFixed(0)} ms (min ${Math.min(...runs.map((r) => r.synthMs)).toFixed(0)}, max ${Math.max(...runs.map((r) => r.synthMs)).toFixed(0)})`);
    console.log(`  deployments/s   ${(FLEET_SIZE / (synthMs / 1000)).toFixed(0)}`);
    console.log(`  objects/s       ${(objects / (synthMs / 1000)).toFixed(0)} (${objects} objects per fleet)`);
    console.log(`  YAML floor      median ${floorMs.toFixed(0)} ms; ratio synth/floor ${(synthMs / floorMs).toFixed(2)}`);
  }
  console.log(`peak RSS        ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB (whole process, all fleets)`);

  const cold = Array.from({ length: COLD_RUNS }, coldStartMs);
  console.log(`cold small app  median ${median(cold).toFixed(0)} ms over ${COLD_RUNS} fresh processes (min ${Math.min(...cold).toFixed(0)}, max ${Math.max(...cold).toFixed(0)})`);
}

main();
