/**
 * Every engine command line we render — every example's and every case of the generated matrix —
 * is one the engine's own parser accepts, and one that serves what its record asked (prefix
 * caching, eager mode, context length, served name, ranks against GPUs, KV connector). The parsers
 * are the real ones' argparse definitions, extracted from the engines' PyPI packages at the versions
 * our default images carry (test/fixtures/engine-parsers, scripts/engine-parsers/extract-all.sh);
 * `npm run test:engine-parsers` runs the same corpus through the real parsers. FlexInfer Models
 * hold no command line: the one FlexInfer's controller would render is emulated
 * (./flexinfer-command-line). A mismatch a provider warns about at synth time (`WARNED_GAPS`) is
 * counted apart and does not fail.
 */
import { checkLines, CorpusEntry, corpusLines, describeFailure, exampleCorpus, LineResult, matrixCorpus, reportRows, WARNED_GAPS } from './conformance';
import { rayServeResults } from './ray-serve-conformance';

jest.setTimeout(300_000);

let examples: CorpusEntry[];
let matrix: CorpusEntry[];
let results: LineResult[];

beforeAll(async () => {
  examples = await exampleCorpus();
  matrix = await matrixCorpus();
  results = checkLines(corpusLines([...examples, ...matrix]));
});

test('the corpus covers every provider that starts an engine, and every engine parser', () => {
  const rows = reportRows(results);
  expect([...new Set(rows.map((r) => r.provider))].sort()).toEqual(expect.arrayContaining(['dynamo', 'flexinfer', 'kthena', 'llmd', 'modelplane', 'vllm']));
  expect([...new Set(rows.map((r) => r.parser))].sort()).toEqual(expect.arrayContaining([
    // Today's defaults ...
    'dynamo-1.6.1-mocker', 'dynamo-1.6.1-sglang', 'dynamo-1.6.1-trtllm', 'dynamo-1.6.1-vllm', 'sglang-0.5.23-launch-server', 'vllm-0.33.0-serve',
    // ... and the previous ones, pinned (examples/keep-previous-images.ts): `vllm serve <model>` runs on them too.
    'vllm-0.11.0-serve', 'vllm-0.9.1-serve',
  ]));
  expect(results.length).toBeGreaterThanOrEqual(200);
});

test('every command line of our default images has a parser to judge it', () => {
  expect(results.filter((r) => r.unchecked).map((r) => `${r.line.source}: ${r.unchecked}`)).toEqual([]);
});

test('every example command line is accepted by its engine and serves what its record asked', () => {
  const failed = results.filter((r) => r.line.source.startsWith('examples/') && r.verdict && (!r.verdict.accepted || r.mismatches.length > 0));
  expect(failed.map(describeFailure)).toEqual([]);
});

test('every matrix command line is accepted by its engine and serves what its record asked', () => {
  const failed = results.filter((r) => r.line.source.startsWith('matrix/') && r.verdict && (!r.verdict.accepted || r.mismatches.length > 0));
  expect(failed.map(describeFailure)).toEqual([]);
});

test('every FlexInfer vllm Model yields the command line FlexInfer would run, judged as the vLLM of its image', () => {
  const flexinfer = results.filter((r) => r.provider === 'flexinfer');
  const models = [...examples, ...matrix].flatMap((e) => (e.objects ?? []).filter((o) => o?.apiVersion === 'ai.flexinfer/v1alpha2' && o.kind === 'Model' && o.spec?.backend === 'vllm'));
  expect(flexinfer).toHaveLength(models.length);
  expect(flexinfer.length).toBeGreaterThanOrEqual(15);
  for (const r of flexinfer) {
    expect({ source: r.line.source, image: r.line.image, program: r.line.program, parser: r.parser })
      .toEqual({ source: r.line.source, image: 'vllm/vllm-openai:v0.33.0', program: ['vllm', 'serve'], parser: 'vllm-0.33.0-serve' });
  }
  // Each setting reaches the command line as the flag it asked for.
  const argvOf = (name: string) => flexinfer.find((r) => r.line.source.startsWith(`matrix/flexinfer/${name}:`))?.line.argv.join(' ');
  expect(argvOf('base')).toBe('--host 0.0.0.0 --port 8000 --model Qwen/Qwen3-8B');
  expect(argvOf('everything')).toBe('--host 0.0.0.0 --port 8000 --model Qwen/Qwen3-8B --max-model-len 16384 --trust-remote-code --enforce-eager --served-model-name chat --no-enable-prefix-caching');
  expect(argvOf('modelCache volume')).toBe('--host 0.0.0.0 --port 8000 --model /models/m --served-model-name Qwen/Qwen3-8B');
});

test('a mismatch is excused only as a known gap the synth warned about, on the lines that have it', () => {
  const warned = results.filter((r) => r.warned.length > 0);
  expect(warned.map((r) => `${r.line.source}: ${r.warned.join('; ')}`)).toEqual([
    'matrix/flexinfer/2 GPUs: Model ml/m .spec (FlexInfer vllm backend): 1 ranks (TP 1 × PP 1 × DP 1) on 2 GPUs',
    'matrix/flexinfer/4 GPUs: Model ml/m .spec (FlexInfer vllm backend): 1 ranks (TP 1 × PP 1 × DP 1) on 4 GPUs',
    'matrix/flexinfer/everything: Model ml/m .spec (FlexInfer vllm backend): 1 ranks (TP 1 × PP 1 × DP 1) on 2 GPUs',
  ]);
  expect(WARNED_GAPS.map((g) => g.provider)).toEqual(['flexinfer']);
});

test('a matrix case the synth refuses is refused with a field error, never half-written', () => {
  const refused = matrix.filter((e) => e.refused !== undefined);
  for (const e of refused) expect({ name: e.name, message: e.refused }).toEqual({ name: e.name, message: expect.stringMatching(/spec\.|metadata\.annotations/) });
  // Most of the matrix is valid input: a change that refuses it wholesale is caught here.
  expect(refused.length).toBeLessThan(matrix.length / 5);
});

test('every RayService serves through a builder Ray Serve LLM has, with LLM configs and engine_kwargs vLLM takes, on the GPUs it is given', () => {
  const ray = [...examples, ...matrix].flatMap((e) => (e.objects ? rayServeResults(e.objects, e.name) : []));
  expect(ray.filter((r) => r.problems.length > 0).map((r) => `${r.source}: ${r.problems.join('; ')}`)).toEqual([]);
  // Aggregated, prefill/decode and multi-node RayServices, in examples and matrix.
  expect(ray.filter((r) => r.source.startsWith('examples/')).length).toBeGreaterThanOrEqual(3);
  expect(ray.filter((r) => r.llmConfigs === 2).length).toBeGreaterThan(0);
  expect(ray.reduce((n, r) => n + r.llmConfigs, 0)).toBeGreaterThan(20);
});
