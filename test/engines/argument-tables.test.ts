/**
 * The engines' option table the library reads (src/provider-kit/generated/engine-arguments.ts)
 * is what scripts/engine-parsers/argument-tables.ts writes from the committed real-parser
 * definitions, and it says what the definitions say about the options we depend on.
 */
import * as fs from 'fs';
import { generateTables, TABLES_MODULE } from '../../scripts/engine-parsers/argument-tables';
import { engineFlag } from '../../src/provider-kit/engine-flag-table';
import { engineArgumentTable, engineOption, switchTokens } from '../../src/provider-kit/engine-switches';

test('the committed table is the generated one (run `npx projen engine-arguments` after extracting)', () => {
  expect(fs.readFileSync(TABLES_MODULE, 'utf8')).toBe(generateTables());
});

test('switch forms follow each engine\'s parser: vLLM\'s BooleanOptionalAction has a --no- form, SGLang\'s store_true none', () => {
  const vllm = engineArgumentTable('vllm-0.33.0')!;
  const sglang = engineArgumentTable('sglang-0.5.23')!;
  expect(switchTokens(vllm, 'enable-prefix-caching', 'false')).toEqual(['--no-enable-prefix-caching']);
  expect(switchTokens(vllm, 'enforce-eager', 'TRUE')).toEqual(['--enforce-eager']);
  expect(switchTokens(sglang, 'enable-mixed-chunk', 'false')).toEqual([]);
  expect(switchTokens(sglang, 'enable-mixed-chunk', 'true')).toEqual(['--enable-mixed-chunk']);
  // Options that take a value keep it.
  expect(switchTokens(vllm, 'max-model-len', 'true')).toBeUndefined();
  expect(engineOption(vllm, 'max_model_len')).toEqual({ option: '--max-model-len', dest: 'max_model_len', kind: 'i' });
});

test('removed and deprecated options come from the parsers: what the previous defaults took and the current one does not, and what it marks deprecated', () => {
  const vllm = engineArgumentTable('vllm-0.33.0')!;
  const sglang = engineArgumentTable('sglang-0.5.23')!;
  expect(vllm.previousParsers).toEqual(['vllm-0.9.1-api-server', 'vllm-0.11.0-api-server']);
  // vLLM 0.9.1 had --swap-space; 0.33.0's parser has no option of that destination.
  expect(vllm.removed['--swap-space']).toBeNull();
  expect(vllm.options['--swap-space']).toBeUndefined();
  // Nothing the current parser has is listed as removed.
  expect(Object.keys(vllm.removed).filter((f) => vllm.options[f])).toEqual([]);
  expect(sglang.deprecated['--disable-cuda-graph']).toBe('--cuda-graph-backend-{decode,prefill}=disabled');
  expect(sglang.options['--disable-cuda-graph']).toBeDefined();
});

test('SGLang\'s eager mode follows the release: both CUDA-graph backends disabled from 0.5.2x, --disable-cuda-graph before', () => {
  const eager = (id: string) => engineFlag('sglang', 'enforceEager', undefined, engineArgumentTable(id));
  expect(eager('dynamo-1.6.1-sglang')).toEqual(['--cuda-graph-backend-decode', 'disabled', '--cuda-graph-backend-prefill', 'disabled']);
  expect(eager('sglang-0.5.23')).toEqual(['--cuda-graph-backend-decode', 'disabled', '--cuda-graph-backend-prefill', 'disabled']);
  // Dynamo 1.1.1 carries SGLang 0.5.10.post1, whose parser has no --cuda-graph-backend-decode.
  expect(engineArgumentTable('dynamo-1.1.1-sglang')!.options['--cuda-graph-backend-decode']).toBeUndefined();
  expect(eager('dynamo-1.1.1-sglang')).toEqual(['--disable-cuda-graph']);
});
