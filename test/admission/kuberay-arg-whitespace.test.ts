import { formatFieldError } from '../../src/core/field-error';
import { kuberayArgWhitespaceErrors, kuberayEngineArgString } from '../../src/providers/kuberay/args';

const spec = (engine: object, model: object = { id: 'Qwen/Qwen3-0.6B' }): any => ({ model, engine: { type: 'vllm', ...engine } });

describe('KubeRay: no whitespace in what VLLM_ENGINE_ARGS joins with spaces', () => {
  test('a flag value that would smuggle in --trust-remote-code is refused at its field', () => {
    const s = spec({ args: { 'max-model-len': '4096 --trust-remote-code' } });
    // What the Serve application would receive: one more flag than the spec has.
    expect(kuberayEngineArgString(s).split(/\s+/)).toContain('--trust-remote-code');
    expect(kuberayArgWhitespaceErrors(s).map(formatFieldError)).toEqual([
      'spec.engine.args.max-model-len: Invalid value: "4096 --trust-remote-code": must not contain whitespace on KubeRay: ' +
        "VLLM_ENGINE_ARGS is split on whitespace into vLLM's arguments, so whitespace here would inject other flags",
    ]);
  });

  test('keys, extraArgs tokens, the model id and the served name; tabs and newlines too', () => {
    const s = spec({ args: { 'a b': '1', 'ok': 'x\ty' }, extraArgs: ['--enforce-eager', '--x\n--y'] }, { id: 'a b', servedName: 'n m' });
    expect(kuberayArgWhitespaceErrors(s).map((e) => e.path)).toEqual([
      'spec.model.id', 'spec.model.servedName', 'spec.engine.args["a b"]', 'spec.engine.args.ok', 'spec.engine.extraArgs[1]',
    ]);
  });

  test('ordinary flags pass', () => {
    expect(kuberayArgWhitespaceErrors(spec({ args: { 'max-model-len': '4096', 'enforce-eager': '' }, extraArgs: ['--seed=1'] }))).toEqual([]);
  });
});
