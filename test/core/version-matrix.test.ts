/**
 * The version matrix (src/core/version-matrix.ts): every default image is a released version, each
 * provider × engine has one row, a repository's newest version comes first (the moving-tag warning
 * suggests the first), Dynamo's rows are one release (its images are tagged alike), every parser
 * named is a committed parser definition, and the providers' defaults are the matrix's.
 */
import * as fs from 'fs';
import * as path from 'path';
import { movingTagReason } from '../../src/core/image-reference';
import { pinnedDefaultFor } from '../../src/core/pinned-images';
import { DEFAULT_IMAGES, defaultImageRef } from '../../src/core/version-matrix';
import { dynamoImages } from '../../src/providers/dynamo/images';
import { KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE } from '../../src/providers/kthena/images';
import { KUBERAY_DEFAULT_IMAGE } from '../../src/providers/kuberay/images';
import { LLMD_ENDPOINT_PICKER_IMAGE } from '../../src/providers/llmd/config';
import { LLMD_DEFAULT_IMAGE } from '../../src/providers/llmd/images';
import { MODELPLANE_SGLANG_IMAGE, MODELPLANE_VLLM_IMAGE } from '../../src/providers/modelplane/settings';
import { DIRECT_VLLM_DEFAULT_IMAGE } from '../../src/providers/vllm/images';

const PARSERS = path.join(__dirname, '..', 'fixtures', 'engine-parsers');

/** A release's tag: `v1.2.3`, `1.2.3`, with a build suffix (`-py311-cu128`, `.post1`). */
const RELEASE_TAG = /^v?\d+\.\d+\.\d+([.-][0-9A-Za-z.-]+)?$/;

/** Orders release tags numerically by their x.y.z. */
function versionKey(tag: string): number[] {
  return tag.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number);
}

describe('the version matrix', () => {
  test.each(DEFAULT_IMAGES.map((d) => [`${d.provider} ${d.engine}`, d] as const))('%s: a released version, not a moving tag', (_, d) => {
    expect(d.tag).toMatch(RELEASE_TAG);
    expect(movingTagReason(`${d.repository}:${d.tag}`)).toBeUndefined();
  });

  test('one row per provider and engine', () => {
    const keys = DEFAULT_IMAGES.map((d) => `${d.provider}/${d.engine}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('a repository\'s newest version comes first, and a moving tag of it is pointed there', () => {
    const byRepository = new Map<string, string[]>();
    for (const d of DEFAULT_IMAGES) byRepository.set(d.repository, [...byRepository.get(d.repository) ?? [], d.tag]);
    for (const [repository, tags] of byRepository) {
      const newest = [...tags].sort((a, b) => {
        const [x, y] = [versionKey(a), versionKey(b)];
        return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
      })[0];
      expect(`${repository}:${tags[0]}`).toBe(`${repository}:${newest}`);
      expect(pinnedDefaultFor(`${repository}:latest`)).toBe(`${repository}:${newest}`);
    }
  });

  test('Dynamo\'s images are one release', () => {
    expect(new Set(DEFAULT_IMAGES.filter((d) => d.provider === 'dynamo' && d.engine !== 'model-downloader').map((d) => d.tag)).size).toBe(1);
  });

  test.each(DEFAULT_IMAGES.filter((d) => d.parser).map((d) => [d.parser!] as const))('parser definition %s is committed', (parser) => {
    expect(fs.existsSync(path.join(PARSERS, `${parser}.json`))).toBe(true);
  });

  test('the providers default to the matrix\'s images', () => {
    const dynamo = dynamoImages();
    expect({
      vllm: DIRECT_VLLM_DEFAULT_IMAGE,
      llmd: LLMD_DEFAULT_IMAGE,
      llmdPicker: LLMD_ENDPOINT_PICKER_IMAGE,
      kthenaVllm: KTHENA_DEFAULT_VLLM_IMAGE,
      kthenaSglang: KTHENA_DEFAULT_SGLANG_IMAGE,
      modelplaneVllm: MODELPLANE_VLLM_IMAGE,
      modelplaneSglang: MODELPLANE_SGLANG_IMAGE,
      kuberay: KUBERAY_DEFAULT_IMAGE,
      dynamo: [dynamo.vllm, dynamo.sglang, dynamo.trtllm, dynamo.epp, dynamo.mocker],
    }).toEqual({
      vllm: defaultImageRef('vllm', 'vllm'),
      llmd: defaultImageRef('llmd', 'vllm'),
      llmdPicker: defaultImageRef('llmd', 'endpoint-picker'),
      kthenaVllm: defaultImageRef('kthena', 'vllm'),
      kthenaSglang: defaultImageRef('kthena', 'sglang'),
      modelplaneVllm: defaultImageRef('modelplane', 'vllm'),
      modelplaneSglang: defaultImageRef('modelplane', 'sglang'),
      kuberay: defaultImageRef('kuberay', 'vllm'),
      dynamo: ['vllm', 'sglang', 'trtllm', 'endpoint-picker', 'mocker'].map((e) => defaultImageRef('dynamo', e)),
    });
  });
});
