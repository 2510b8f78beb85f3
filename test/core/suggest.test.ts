import { closestMatch, didYouMean, editDistance } from '../../src/core/suggest';

describe('suggest', () => {
  test('editDistance counts insertions, deletions and substitutions', () => {
    expect(editDistance('vllm', 'vllm')).toBe(0);
    expect(editDistance('vlm', 'vllm')).toBe(1);
    expect(editDistance('vlmm', 'vllm')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  test.each([
    ['vlm', 'vllm'],
    ['VLLM ', 'vllm'],
    ['sglan', 'sglang'],
    ['kube', 'kuberay'],
    ['llm', 'llmd'],
    ['dynamo-operator', 'dynamo'],
    ['scalng', 'scaling'],
  ])('%j is close to %j', (value, expected) => {
    expect(closestMatch(value, ['vllm', 'sglang', 'kuberay', 'llmd', 'dynamo', 'scaling'])).toBe(expected);
  });

  test.each([['tgi'], ['x'], ['nim'], ['ku'], ['vllm']])('nothing is close to %j', (value) => {
    expect(closestMatch(value, ['vllm', 'sglang', 'trtllm', 'llamacpp', 'kuberay'])).toBeUndefined();
  });

  test('ties go to the earlier candidate; didYouMean renders the suggestion or nothing', () => {
    expect(closestMatch('ab', ['ax', 'xb'])).toBe('ax');
    expect(didYouMean('vlm', ['vllm'])).toBe('; did you mean "vllm"?');
    expect(didYouMean('tgi', ['vllm'])).toBe('');
    expect(didYouMean(3, ['vllm'])).toBe('');
  });
});
