/**
 * The engines' option table the library reads (src/providers/common/generated/engine-arguments.ts)
 * is what scripts/engine-parsers/argument-tables.ts writes from the committed real-parser
 * definitions, and it says what the definitions say about the options we depend on.
 */
import * as fs from 'fs';
import { generateTables, TABLES_MODULE } from '../../scripts/engine-parsers/argument-tables';
import { engineArgumentTable, engineOption, switchTokens } from '../../src/providers/common/engine-switches';

test('the committed table is the generated one (run `npx projen engine-arguments` after extracting)', () => {
  expect(fs.readFileSync(TABLES_MODULE, 'utf8')).toBe(generateTables());
});

test('switch forms follow each engine\'s parser: vLLM\'s BooleanOptionalAction has a --no- form, SGLang\'s store_true none', () => {
  const vllm = engineArgumentTable('vllm-0.11.0')!;
  const sglang = engineArgumentTable('sglang-0.5.4')!;
  expect(switchTokens(vllm, 'enable-prefix-caching', 'false')).toEqual(['--no-enable-prefix-caching']);
  expect(switchTokens(vllm, 'enforce-eager', 'TRUE')).toEqual(['--enforce-eager']);
  expect(switchTokens(sglang, 'enable-mixed-chunk', 'false')).toEqual([]);
  expect(switchTokens(sglang, 'enable-mixed-chunk', 'true')).toEqual(['--enable-mixed-chunk']);
  // Options that take a value keep it.
  expect(switchTokens(vllm, 'max-model-len', 'true')).toBeUndefined();
  expect(engineOption(vllm, 'max_model_len')).toEqual({ option: '--max-model-len', dest: 'max_model_len', kind: 'i' });
});
