import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import { compileRule, evaluateRule, RuleOutcome } from '../../src/selection/cel-rules';
import { celSpecMap, CelSpecMap } from '../../src/selection/cel-spec-map';

const KAITO_NO_GPU = '!has(spec.resources.gpu) || spec.resources.gpu.count == 0';
const DYNAMO_GPU_VLLM = "has(spec.resources.gpu) && spec.resources.gpu.count > 0 && spec.engine.type == 'vllm'";
const KUBERAY_MULTI_GPU = "has(spec.resources.gpu) && spec.resources.gpu.count > 1 && spec.engine.type == 'vllm'";

function outcome(condition: string, spec: CelSpecMap): RuleOutcome {
  return evaluateRule(condition, spec).outcome;
}

/** The CEL map of a stored spec whose engine resolved to vLLM. */
function vllmMap(stored: Partial<ModelDeploymentSpec>): CelSpecMap {
  return celSpecMap({ model: { id: 'm' }, ...stored }, 'vllm');
}

describe('shipped rules on real specs (§4.5.3)', () => {
  test.each<[string, RuleOutcome, RuleOutcome, RuleOutcome, Partial<ModelDeploymentSpec>]>([
    // has() on the missing `resources` is an error; `false || error` and `error && …` stay errors.
    ['no resources', 'runtime-error', 'runtime-error', 'runtime-error', {}],
    ['resources without gpu', 'matched', 'false', 'false', { resources: { cpu: '4' } }],
    ['gpu.count 1, engine vllm', 'false', 'matched', 'false', { resources: { gpu: { count: 1 } } }],
    ['gpu.count 2, engine vllm', 'false', 'matched', 'matched', { resources: { gpu: { count: 2 } } }],
    // count 0 is omitted from the map: `spec.resources.gpu.count` is a missing key.
    ['gpu: {count: 0}', 'runtime-error', 'runtime-error', 'runtime-error', { resources: { gpu: { count: 0 } } }],
  ])('%s: kaito %s, dynamo %s, kuberay %s', (_, kaito, dynamo, kuberay, stored) => {
    const map = vllmMap(stored);
    expect(outcome(KAITO_NO_GPU, map)).toBe(kaito);
    expect(outcome(DYNAMO_GPU_VLLM, map)).toBe(dynamo);
    expect(outcome(KUBERAY_MULTI_GPU, map)).toBe(kuberay);
  });

  test('resources with an empty gpu object errors like a zero count', () => {
    const map = vllmMap({ resources: { gpu: { type: 'nvidia.com/gpu' } } });
    expect(outcome(KAITO_NO_GPU, map)).toBe('runtime-error');
    expect(outcome(DYNAMO_GPU_VLLM, map)).toBe('runtime-error');
  });

  test('the llamacpp rule sees the auto-selected engine through the overlay', () => {
    expect(outcome("spec.engine.type == 'llamacpp'", celSpecMap({ model: { id: 'm' } }, 'llamacpp'))).toBe('matched');
    expect(outcome("spec.engine.type == 'llamacpp'", celSpecMap({ model: { id: 'm' } }))).toBe('runtime-error');
  });

  test("dynamo's disaggregated rule is false, not an error, without spec.serving", () => {
    const rule = "has(spec.serving) && spec.serving.mode == 'disaggregated'";
    expect(outcome(rule, vllmMap({}))).toBe('false');
    expect(outcome(rule, vllmMap({ serving: { mode: 'aggregated' } }))).toBe('false');
    expect(outcome(rule, vllmMap({ serving: { mode: 'disaggregated' } }))).toBe('matched');
  });
});

describe('CEL semantics (§4.5.1)', () => {
  const map: CelSpecMap = { engine: { type: 'vllm' }, resources: { gpu: { count: 1 } }, l: [1, 2], s: 'abc' };

  test('has() tests only the last field; a missing parent is an error', () => {
    expect(outcome('has(spec.resources)', map)).toBe('matched');
    expect(outcome('has(spec.serving)', map)).toBe('false');
    expect(outcome('has(spec.resources.cpu)', map)).toBe('false');
    expect(outcome('has(spec.serving.mode)', map)).toBe('runtime-error');
  });

  test('|| is true when either side is true, even if the other errors; false || error is an error', () => {
    expect(outcome('spec.missing.x || true', map)).toBe('matched');
    expect(outcome('true || spec.missing.x', map)).toBe('matched');
    expect(outcome('false || spec.missing.x', map)).toBe('runtime-error');
    expect(outcome('spec.missing.x || false', map)).toBe('runtime-error');
  });

  test('&& is false when either side is false, even if the other errors; true && error is an error', () => {
    expect(outcome('spec.missing.x && false', map)).toBe('false');
    expect(outcome('false && spec.missing.x', map)).toBe('false');
    expect(outcome('true && spec.missing.x', map)).toBe('runtime-error');
    expect(outcome('spec.missing.x && true', map)).toBe('runtime-error');
  });

  test('numbers from the spec are doubles that compare with int literals numerically', () => {
    expect(outcome('spec.resources.gpu.count > 0', map)).toBe('matched');
    expect(outcome('spec.resources.gpu.count == 1', map)).toBe('matched');
    expect(outcome('spec.resources.gpu.count == 1.0', map)).toBe('matched');
    expect(outcome('spec.resources.gpu.count >= 2', map)).toBe('false');
    expect(outcome('spec.resources.gpu.count > 0u', map)).toBe('matched');
    expect(outcome('2 in spec.l', map)).toBe('matched');
  });

  test('arithmetic does not mix double and int: an error', () => {
    expect(outcome('spec.resources.gpu.count + 1 == 2', map)).toBe('runtime-error');
    expect(outcome('spec.resources.gpu.count + 1.0 == 2.0', map)).toBe('matched');
  });

  test('equality across types is false, ordering across types an error', () => {
    expect(outcome('spec.engine.type == 1', map)).toBe('false');
    expect(outcome('spec.engine.type != 1', map)).toBe('matched');
    expect(outcome('spec.engine.type > 1', map)).toBe('runtime-error');
  });

  test('a missing map key is an error; index and `in` work on maps', () => {
    expect(outcome("spec.engine.image == 'x'", map)).toBe('runtime-error');
    expect(outcome("spec.engine['type'] == 'vllm'", map)).toBe('matched');
    expect(outcome("'type' in spec.engine", map)).toBe('matched');
    expect(outcome("'image' in spec.engine", map)).toBe('false');
  });

  test('standard macros and string functions are available', () => {
    expect(outcome('spec.l.exists(x, x > 1)', map)).toBe('matched');
    expect(outcome('spec.l.all(x, x > 1)', map)).toBe('false');
    expect(outcome('size(spec.l) == 2', map)).toBe('matched');
    expect(outcome("spec.s.startsWith('a') && spec.s.matches('^a.c$')", map)).toBe('matched');
    expect(outcome("spec.engine.type in ['vllm', 'sglang']", map)).toBe('matched');
  });

  test('extension libraries are not: calling their functions is a compile error, as in cel-go', () => {
    expect(evaluateRule("spec.s.lowerAscii() == 'abc'", map)).toEqual({ outcome: 'compile-error', matched: false, message: "unknown method 'lowerAscii'" });
    // Also where || would absorb a run-time error: cel-go rejects the rule before evaluating it.
    expect(outcome("spec.s.lowerAscii() == 'abc' || true", map)).toBe('compile-error');
    expect(outcome("quantity('1') == quantity('1')", map)).toBe('compile-error');
    expect(outcome('cel.bind(x, 1, x == 1)', map)).toBe('compile-error');
  });

  test("the standard library's global matches() and a comment at the end are CEL", () => {
    expect(outcome("matches(spec.s, '^a.c$')", map)).toBe('matched');
    expect(outcome("spec.s == 'abc' // the shipped default", map)).toBe('matched');
  });

  test('hostile rules are compile errors, not hangs or crashes', () => {
    expect(evaluateRule(`${'('.repeat(101)}true${')'.repeat(101)}`, map).message).toBe('brackets nest more than 100 levels deep');
    expect(evaluateRule(`${'1 + '.repeat(300)}1 > 0`, map).message).toBe('the expression is nested more than 250 levels deep');
    expect(evaluateRule(`'${'a'.repeat(100_000)}' == spec.s`, map).message).toBe('the expression is 100012 code points long; CEL allows at most 100000');
  });

  test('a result that is not a boolean is no match', () => {
    expect(evaluateRule("'yes'", map)).toEqual({ outcome: 'non-bool', matched: false, message: 'did not return bool, got string' });
    expect(evaluateRule('spec.resources.gpu.count', map)).toEqual({ outcome: 'non-bool', matched: false, message: 'did not return bool, got double' });
    expect(evaluateRule('spec.resources', map).outcome).toBe('non-bool');
    expect(evaluateRule('spec.l', map).outcome).toBe('non-bool');
    expect(evaluateRule('1', map).message).toBe('did not return bool, got int');
  });

  test('a syntax error is a compile error, with the parser message', () => {
    const result = evaluateRule('spec.engine.type ==', map);
    expect(result.outcome).toBe('compile-error');
    expect(result.matched).toBe(false);
    expect(result.message).toBeTruthy();
  });

  test('a name other than spec is a compile error', () => {
    expect(evaluateRule("metadata.name == 'x'", map)).toEqual({
      outcome: 'compile-error',
      matched: false,
      message: "undeclared reference to 'metadata'",
    });
    expect(evaluateRule('spec.l.exists(x, y == 1)', map).message).toBe("undeclared reference to 'y'");
    expect(outcome('spec.l.exists(x, x == 1)', map)).toBe('matched');
    expect(outcome('type(spec.s) == string', map)).toBe('matched');
  });

  test('operators on literal operands of different types are compile errors, as in cel-go', () => {
    expect(evaluateRule('1.0 == 1', map)).toEqual({
      outcome: 'compile-error',
      matched: false,
      message: "found no matching overload for '_==_' applied to '(double, int)'",
    });
    expect(outcome('1 < 1.5', map)).toBe('compile-error');
    expect(outcome('size(spec.l) > 0u', map)).toBe('compile-error');
    expect(outcome("'a' + 1 == 'a1'", map)).toBe('compile-error');
    expect(outcome("(true ? 1 : 'a') == 1", map)).toBe('compile-error');
    expect(outcome('[1, 2].exists(x, x == 1.0)', map)).toBe('compile-error');
    expect(outcome('size(spec.l) > 0', map)).toBe('matched');
    expect(outcome('dyn(1.0) == 1', map)).toBe('matched');
  });

  test('each condition is compiled once', () => {
    const condition = "spec.engine.type == 'cached'";
    expect(compileRule(condition)).toBe(compileRule(condition));
    expect(compileRule(condition).program).toBeDefined();
    expect(compileRule('(').compileError).toBeTruthy();
    expect(compileRule('(')).toBe(compileRule('('));
  });

  test('a cached program gives each spec its own answer', () => {
    expect(outcome(DYNAMO_GPU_VLLM, vllmMap({ resources: { gpu: { count: 1 } } }))).toBe('matched');
    expect(outcome(DYNAMO_GPU_VLLM, vllmMap({ resources: { cpu: '1' } }))).toBe('false');
    expect(outcome(DYNAMO_GPU_VLLM, celSpecMap({ model: {}, resources: { gpu: { count: 1 } } }, 'sglang'))).toBe('false');
  });
});
