import { movingTagReason, parseImageReference } from './image-reference';
import { DEFAULT_ENDPOINT_PICKER_IMAGE } from '../gateway/endpoint-picker';
import { dynamoImages } from '../providers/dynamo/images';
import { KTHENA_DEFAULT_SGLANG_IMAGE, KTHENA_DEFAULT_VLLM_IMAGE } from '../providers/kthena/images';
import { KUBERAY_DEFAULT_IMAGE } from '../providers/kuberay/images';
import { LLMD_ENDPOINT_PICKER_IMAGE } from '../providers/llmd/config';
import { LLMD_DEFAULT_IMAGE } from '../providers/llmd/images';
import { MODELPLANE_SGLANG_IMAGE, MODELPLANE_VLLM_IMAGE } from '../providers/modelplane/settings';
import { DIRECT_VLLM_DEFAULT_IMAGE } from '../providers/vllm/images';

/**
 * The default images of the shipped providers, newest version of a repository first. Built on
 * first use: the provider modules need not be loaded before this one.
 */
function defaultImages(): string[] {
  const dynamo = dynamoImages();
  return [
    KTHENA_DEFAULT_VLLM_IMAGE, MODELPLANE_VLLM_IMAGE, DIRECT_VLLM_DEFAULT_IMAGE, LLMD_DEFAULT_IMAGE,
    KTHENA_DEFAULT_SGLANG_IMAGE, MODELPLANE_SGLANG_IMAGE,
    KUBERAY_DEFAULT_IMAGE,
    dynamo.vllm, dynamo.sglang, dynamo.trtllm, dynamo.epp, dynamo.mocker,
    DEFAULT_ENDPOINT_PICKER_IMAGE, LLMD_ENDPOINT_PICKER_IMAGE,
  ];
}

/**
 * A pinned image of the same repository as `image` that cdk8s-inference uses by default, or
 * undefined when it uses none. Defaults that are themselves moving are never suggested.
 */
export function pinnedDefaultFor(image: string): string | undefined {
  const repository = parseImageReference(image).repository;
  return defaultImages().find((d) => parseImageReference(d).repository === repository && movingTagReason(d) === undefined);
}
