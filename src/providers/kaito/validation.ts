import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { DEFAULT_GPU_RESOURCE } from '../../core/defaults';
import { FieldError, forbidden, invalid, required } from '../../core/field-error';
import { gpuTypeOf } from '../../core/gpu-type';
import { imageOverride } from '../../core/model-deployment-object';
import { PROVIDER_OVERRIDES_PATH, unknownOverrideRootErrors, validateOverrideKeys } from '../../provider-kit/overrides';
import { isJsonObject } from '../../provider-kit/unstructured';

/*
 * What the KAITO provider refuses: its checks of a deployment and their messages. Kept apart
 * from the translator so that the controller, which validates but never builds objects, does not
 * load cdk8s-plus-34 or the generated Workspace bindings.
 */

/** Human name of the provider in messages. */
export const KAITO_DISPLAY_NAME = 'KAITO';

/**
 * Root fields of a `kaito.sh/v1beta1` Workspace that overrides may set, as AI Runway's KAITO
 * provider accepts them. The Workspace has no `spec`: its fields sit at the object root. Its
 * third one, `tuning`, is not among them: a Workspace either serves a model (`inference`) or
 * fine-tunes one (`tuning`), and the Workspace of a deployment serves.
 */
export const WORKSPACE_OVERRIDABLE_ROOT_KEYS: readonly string[] = ['resource', 'inference'];

/**
 * Fields under an allowed root that overrides may not set either, each with where its value
 * comes from (`resource.count`, the node count, is `spec.scaling.replicas`).
 */
export const WORKSPACE_BLOCKED_OVERRIDE_FIELDS: Readonly<Record<string, string>> = {
  'resource.count': 'the Workspace\'s node count comes from spec.scaling.replicas, where admission enforces its limits',
};

const quotedRoots = WORKSPACE_OVERRIDABLE_ROOT_KEYS.map((k) => JSON.stringify(k)).join(' and ');

/** Why a root other than `resource` and `inference` is refused, when there is more to say than that. */
const UNKNOWN_ROOT_REASONS: Readonly<Record<string, string>> = {
  spec: 'a Workspace has no spec: resource and inference sit at its root',
  tuning: 'a Workspace either serves a model (inference) or fine-tunes one (tuning), and the Workspace of a ModelDeployment serves',
};

/** The message of a root key KAITO's overrides do not accept. */
export function kaitoUnknownOverrideRoot(key: string): string {
  // Own keys only: a root named "constructor" must not find Object's.
  const known = Object.prototype.hasOwnProperty.call(UNKNOWN_ROOT_REASONS, key) ? UNKNOWN_ROOT_REASONS[key] : undefined;
  const reason = known ?? `a Workspace has no root field ${JSON.stringify(key)}; the API server would drop it`;
  return `KAITO overrides accept only the root keys ${quotedRoots} (they merge into the Workspace root), not ${JSON.stringify(key)}: ${reason}`;
}

/** Controller rejection of disaggregated serving. */
export const KAITO_DISAGGREGATED_NOT_SUPPORTED = 'KAITO does not support disaggregated serving mode';
/**
 * Controller rejection of llama.cpp without an image. The text names the legacy `spec.image`
 * (AI Runway's controller checks only that field); we accept `spec.engine.image` as well.
 */
export const KAITO_LLAMACPP_IMAGE_REQUIRED = 'llamacpp engine requires spec.image to be set';

/**
 * Our rejection of a GPU type other than `nvidia.com/gpu`: a Workspace has no field for one, and
 * KAITO requests `nvidia.com/gpu` for its pods whatever the type says.
 */
export const KAITO_GPU_TYPE_NOT_SUPPORTED =
  `KAITO cannot request this GPU type: a Workspace sizes GPUs by its instanceType and KAITO always requests ${DEFAULT_GPU_RESOURCE}; ` +
  `remove spec.resources.gpu.type (or set it to ${DEFAULT_GPU_RESOURCE}) and choose the GPU model through the instanceType ` +
  '(KaitoProvider gpuInstanceType) or spec.nodeSelector, or use the vllm, llmd, kuberay or dynamo provider, which request any GPU type';

/** Controller rejection of an engine KAITO cannot run (sglang, trtllm). */
export function kaitoEngineNotSupported(engine: string): string {
  return `KAITO does not support ${engine} engine`;
}

/**
 * The KAITO controller's rejections, plus checks its transformer and the API server would make
 * later, so that each fails the synth with a field path:
 *
 * - sglang / trtllm → `spec.engine.type`; disaggregated → `spec.serving.mode`;
 * - llama.cpp without an image → `spec.image`. AI Runway's controller demands the legacy
 *   `spec.image` although its transformer takes the image from `spec.engine.image` first. We are
 *   one build-time pipeline with a single image rule, so either field satisfies the check
 *   (`spec.engine.image` wins when both are set, and admission rejects two different values);
 *   the message keeps the upstream text;
 * - (ours) vLLM with an empty `spec.model.id` → `spec.model.id`: the model id becomes the preset
 *   name, and KAITO has no preset without a name;
 * - overrides naming apiVersion/kind/metadata/status → `spec.provider.overrides.<key>`
 *   (`overriding "<key>" is not allowed`);
 * - overrides naming any other root key than `resource` and `inference` (`spec`, `tuning`, a
 *   typo) → `spec.provider.overrides.<key>`; `resource` or `inference` given as a non-object
 *   (it would replace, or with `null` delete, what the provider renders) → their path;
 *   `resource.count` → `spec.provider.overrides.resource.count` (`kaitoOverrideErrors`);
 * - (ours) GPUs requested (`spec.resources.gpu.count > 0`) of a type other than
 *   `nvidia.com/gpu` → `spec.resources.gpu.type`: AI Runway's KAITO drops the type silently and
 *   the pods get NVIDIA GPUs.
 *
 * The GPU taint annotation needs nothing here: KAITO adds the `nvidia.com/gpu` NoSchedule
 * toleration to every inference pod itself, and that is the only GPU type a Workspace can have.
 */
export function validateKaito(md: ResolvedModelDeployment): FieldError[] {
  const errors: FieldError[] = [];
  const engine: string = md.engine;
  if (engine === 'sglang' || engine === 'trtllm') {
    errors.push(invalid('spec.engine.type', engine, kaitoEngineNotSupported(engine)));
  } else if (engine !== 'vllm' && engine !== 'llamacpp') {
    errors.push(invalid('spec.engine.type', engine, `failed to build inference spec: unsupported engine type for KAITO: ${engine}`));
  }
  if (md.mode === 'disaggregated') {
    errors.push(invalid('spec.serving.mode', md.mode, KAITO_DISAGGREGATED_NOT_SUPPORTED));
  }
  if (engine === 'llamacpp' && imageOverride(md.spec) === undefined) {
    errors.push(required('spec.image', KAITO_LLAMACPP_IMAGE_REQUIRED));
  }
  const gpu = md.spec.resources?.gpu;
  if ((gpu?.count ?? 0) > 0 && gpuTypeOf(gpu) !== DEFAULT_GPU_RESOURCE) {
    errors.push(invalid('spec.resources.gpu.type', gpuTypeOf(gpu), KAITO_GPU_TYPE_NOT_SUPPORTED));
  }
  if (engine === 'vllm' && !md.spec.model.id) {
    errors.push(required('spec.model.id', "KAITO's vLLM preset is named by the model id; set spec.model.id"));
  }
  errors.push(...kaitoOverrideErrors(md.spec.provider?.overrides));
  return errors;
}

/**
 * KAITO's rules for `spec.provider.overrides` (after admission's, which refuse `replicas` and
 * `resources` at any depth): the blocked top-level keys; only the roots `resource` and
 * `inference`, each an object when given (a non-object would replace the rendered block, and
 * KAITO applies a `null` by deleting it); and no field of {@link WORKSPACE_BLOCKED_OVERRIDE_FIELDS}.
 */
export function kaitoOverrideErrors(overrides: unknown): FieldError[] {
  const errors = [
    ...validateOverrideKeys(overrides),
    ...unknownOverrideRootErrors(overrides, WORKSPACE_OVERRIDABLE_ROOT_KEYS, kaitoUnknownOverrideRoot),
  ];
  if (!isJsonObject(overrides)) return errors;
  for (const root of WORKSPACE_OVERRIDABLE_ROOT_KEYS) {
    if (!Object.prototype.hasOwnProperty.call(overrides, root) || isJsonObject(overrides[root])) continue;
    errors.push(forbidden(
      `${PROVIDER_OVERRIDES_PATH}.${root}`,
      `overriding ${JSON.stringify(root)} with a non-object is not allowed: it would replace (a null would delete) the Workspace's whole ${root} block; override its fields instead`,
    ));
  }
  for (const [field, source] of Object.entries(WORKSPACE_BLOCKED_OVERRIDE_FIELDS)) {
    const [root, leaf] = field.split('.');
    const parent = overrides[root];
    if (!isJsonObject(parent) || !Object.prototype.hasOwnProperty.call(parent, leaf)) continue;
    errors.push(forbidden(`${PROVIDER_OVERRIDES_PATH}.${field}`, `overriding ${JSON.stringify(field)} is not allowed: ${source}`));
  }
  return errors;
}
