import { movingTagReason, parseImageReference } from '../../src/core/image-reference';
import { pinnedDefaultFor } from '../../src/core/pinned-images';

describe('parseImageReference', () => {
  test.each([
    ['vllm/vllm-openai:v0.11.0', { repository: 'vllm/vllm-openai', tag: 'v0.11.0', digest: false }],
    ['vllm/vllm-openai', { repository: 'vllm/vllm-openai', digest: false }],
    ['localhost:5000/team/vllm', { repository: 'localhost:5000/team/vllm', digest: false }],
    ['localhost:5000/team/vllm:dev', { repository: 'localhost:5000/team/vllm', tag: 'dev', digest: false }],
    ['vllm/vllm-openai:latest@sha256:0123abcd', { repository: 'vllm/vllm-openai', tag: 'latest', digest: true }],
    ['vllm/vllm-openai@sha256:0123abcd', { repository: 'vllm/vllm-openai', digest: true }],
  ])('%s', (image, expected) => {
    expect(parseImageReference(image)).toEqual(expected);
  });
});

describe('movingTagReason', () => {
  test.each([
    ['vllm/vllm-openai:latest', 'tag "latest" follows the latest builds'],
    ['vllm/vllm-openai:nightly', 'tag "nightly" follows the nightly builds'],
    ['vllm/vllm-openai', 'no tag, so "latest" is pulled'],
    ['my.registry:5000/vllm', 'no tag, so "latest" is pulled'],
    ['ghcr.io/team/server:main', 'tag "main" follows the main builds'],
    ['ghcr.io/team/server:DEV', 'tag "DEV" follows the dev builds'],
    ['vllm/vllm-openai:cu130-nightly', 'tag "cu130-nightly" follows the nightly builds'],
    ['ghcr.io/team/server:latest-cuda', 'tag "latest-cuda" follows the latest builds'],
  ])('%s is moving', (image, reason) => {
    expect(movingTagReason(image)).toBe(reason);
  });

  test.each([
    'vllm/vllm-openai:v0.11.0',
    'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.1',
    'vllm/vllm-openai:latest@sha256:0123abcd',
    'vllm/vllm-openai:nightly-3f9c2a1b7e',
    'vllm/vllm-openai:nightly-20260301',
    'ghcr.io/team/server:v0.9.1-dev',
    'rocm/vllm:rocm6.4.1_vllm_0.9.1',
    'ghcr.io/team/server:mainline',
  ])('%s is pinned', (image) => {
    expect(movingTagReason(image)).toBeUndefined();
  });
});

describe('pinnedDefaultFor', () => {
  test('suggests the pinned default of the same repository, never a moving one', () => {
    expect(pinnedDefaultFor('vllm/vllm-openai:latest')).toBe('vllm/vllm-openai:v0.33.0');
    expect(pinnedDefaultFor('lmsysorg/sglang:dev')).toBe('lmsysorg/sglang:v0.5.23');
    expect(pinnedDefaultFor('nvcr.io/nvidia/ai-dynamo/vllm-runtime:main')).toBe('nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.6.1');
    expect(pinnedDefaultFor('ghcr.io/team/server:latest')).toBeUndefined();
  });
});
