import { canonicalBackendName, FlexInferBackend } from './backend';
import {
  cacheHostPathErrors,
  cacheStrategyErrors,
  cacheStrategyFieldErrors,
  cpuVendorErrors,
  gpuCountErrors,
  gpuOnlyBackendErrors,
  gpuPriorityErrors,
  minReplicasErrors,
  positiveDurationErrors,
  serviceLabelCountErrors,
  sharedGroupNameErrors,
  sharedGroupSettingErrors,
  vendorNodeSelectorErrors,
  vramEstimateErrors,
} from './model-field-rules';
import { sourceScheme } from './model-source';
import {
  FORBIDDEN_RESOURCE_KEYS,
  GPU_VENDOR_NODE_LABEL,
  GPU_VENDORS,
  KV_PRESSURE_POLICIES,
  KV_RECONFIGURE_STRATEGIES,
  ModelSpecJson,
} from './model-spec-json';
import { FieldError, forbidden, invalid, notSupported, required } from '../core/field-error';
import { dnsSubdomainErrors } from '../core/kubernetes-names';
import { matchesQuantityPattern, parseQuantity } from '../core/quantity';

/*
 * The rules a FlexInfer Model must satisfy, checked at synth so a bad Model fails with a field
 * path instead of being refused by the API server (the CRD's enums, bounds and CEL rules) or
 * failing later in the controller (the seed's rules the CRD does not encode: source URIs,
 * durations, backend/vendor fit), each at the Model's own path. The rules of single fields are
 * `./model-field-rules`, which the AI Runway provider calls with its users' paths.
 */

function isWholeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function sourceErrors(spec: ModelSpecJson): FieldError[] {
  const path = 'spec.source';
  const source = spec.source;
  if (!source) return [required(path, 'a Model needs a source: HF://org/model, ollama://model:tag, file:///path or pvc://claim/path')];
  const scheme = sourceScheme(source);
  if (scheme === undefined) {
    return [invalid(path, source, 'must start with HF:// (in capitals), ollama://, file:// or pvc://; FlexInfer matches the scheme exactly')];
  }
  const rest = source.slice(scheme.length);
  const backend = canonicalBackendName(spec.backend ?? '');
  switch (scheme) {
    case 'HF://':
      if (!/^[^/\s]+(\/[^/\s]+)?$/.test(rest)) return [invalid(path, source, 'a Hugging Face source names a repository: HF://<org>/<model>')];
      return [];
    case 'ollama://':
      if (rest === '') return [invalid(path, source, 'an Ollama source names a model: ollama://<model>:<tag>')];
      if (backend !== 'ollama') return [invalid(path, source, `only the ollama backend pulls ollama:// models; backend ${JSON.stringify(spec.backend)} cannot`)];
      return [];
    case 'file://':
      if (!rest.startsWith('/')) return [invalid(path, source, 'a file source is an absolute path inside the container: file:///<path>')];
      return [];
    case 'pvc://': {
      const claim = rest.split('/')[0];
      const problems = dnsSubdomainErrors(claim);
      if (claim === '' || problems.length > 0) {
        return [invalid(path, source, `a PVC source is pvc://<claim>[/<path>] with a valid claim name${problems.length > 0 ? `: ${problems.join('; ')}` : ''}`)];
      }
      if (rest.split('/').includes('..')) return [invalid(path, source, 'the path inside the claim may not contain ".."')];
      return [];
    }
  }
}

function gpuErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  const gpu = spec.gpu;
  const backend = FlexInferBackend.of(spec.backend ?? '');
  if (gpu === undefined) {
    // The seed: without spec.gpu the model runs CPU-only.
    if (backend.supportsCpu === false) {
      errors.push(...gpuOnlyBackendErrors(spec.backend, { path: 'spec.gpu', advice: 'a Model without spec.gpu runs CPU-only: set gpu.vendor (auto, nvidia or amd)' }));
    }
    return errors;
  }
  const vendor = gpu.vendor ?? 'auto';
  if (!GPU_VENDORS.includes(vendor)) errors.push(notSupported('spec.gpu.vendor', vendor, GPU_VENDORS));
  errors.push(...gpuCountErrors('spec.gpu.count', gpu.count));
  errors.push(...sharedGroupNameErrors('spec.gpu.shared', gpu.shared));
  errors.push(...gpuPriorityErrors('spec.gpu.priority', gpu.priority));
  errors.push(...vramEstimateErrors('spec.gpu.vramEstimateMB', gpu.vramEstimateMB));
  errors.push(...positiveDurationErrors('spec.gpu.swapCooldown', gpu.swapCooldown));
  if (vendor === 'cpu') {
    errors.push(...cpuVendorErrors(gpu, (field) => ({ path: `spec.gpu.${field}` })));
    if (backend.supportsCpu === false) {
      errors.push(...gpuOnlyBackendErrors(spec.backend, { path: 'spec.gpu.vendor', value: vendor, advice: 'set gpu.vendor to auto, nvidia or amd, or use backend llamacpp' }));
    }
  }
  errors.push(...sharedGroupSettingErrors(gpu, { priority: 'spec.gpu.priority', swapCooldown: 'spec.gpu.swapCooldown' }, 'gpu.shared'));
  errors.push(...vendorNodeSelectorErrors(`spec.nodeSelector[${JSON.stringify(GPU_VENDOR_NODE_LABEL)}]`, spec.nodeSelector?.[GPU_VENDOR_NODE_LABEL],
    vendor, `the Model (${vendor}, from spec.gpu.vendor)`));
  return errors;
}

function serverlessErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  const s = spec.serverless;
  if (!s) return errors;
  errors.push(...minReplicasErrors('spec.serverless.minReplicas', s.minReplicas));
  errors.push(...positiveDurationErrors('spec.serverless.idleTimeout', s.idleTimeout));
  errors.push(...positiveDurationErrors('spec.serverless.coldStartTimeout', s.coldStartTimeout));
  if (s.enabled === false) {
    // Without serverless the controller runs exactly one replica and never idles it.
    for (const key of ['minReplicas', 'idleTimeout', 'coldStartTimeout'] as const) {
      if (s[key] !== undefined) errors.push(invalid(`spec.serverless.${key}`, s[key], 'has no effect when serverless.enabled is false (the model then runs exactly one replica)'));
    }
  }
  return errors;
}

function cacheErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  const cache = spec.cache;
  if (!cache) return errors;
  const strategy = cache.strategy;
  errors.push(...cacheStrategyErrors('spec.cache.strategy', strategy));
  if (spec.source?.startsWith('pvc://') && strategy === 'Memory') {
    errors.push(invalid('spec.cache.strategy', strategy,
      'spec.cache.strategy must be SharedPVC, Local, or None when spec.source is pvc://... (SharedPVC copies to a cache PVC; Local stages onto node-local storage; None mounts the source directly)'));
  }
  // What the other fields configure: the seed calls pvcName/storageClass/size SharedPVC-only, hostPath is Local's.
  const effective = strategy ?? (spec.gpu?.shared ? 'Memory' : 'SharedPVC');
  for (const key of ['pvcName', 'storageClass', 'size'] as const) {
    errors.push(...cacheStrategyFieldErrors(`spec.cache.${key}`, cache[key], 'SharedPVC', effective, 'cache.strategy'));
  }
  const misplacedHostPath = cacheStrategyFieldErrors('spec.cache.hostPath', cache.hostPath, 'Local', effective, 'cache.strategy');
  errors.push(...(misplacedHostPath.length > 0 ? misplacedHostPath : cacheHostPathErrors('spec.cache.hostPath', cache.hostPath)));
  if (cache.pvcName !== undefined && dnsSubdomainErrors(cache.pvcName).length > 0) {
    errors.push(invalid('spec.cache.pvcName', cache.pvcName, `must be a claim name: ${dnsSubdomainErrors(cache.pvcName).join('; ')}`));
  }
  if (cache.size !== undefined && !matchesQuantityPattern(cache.size)) {
    errors.push(invalid('spec.cache.size', cache.size, 'must be a quantity such as 50Gi'));
  }
  return errors;
}

function resourceErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  for (const side of ['limits', 'requests'] as const) {
    const list = spec.resources?.[side] ?? {};
    for (const [key, value] of Object.entries(list)) {
      const path = `spec.resources.${side}[${JSON.stringify(key)}]`;
      if (FORBIDDEN_RESOURCE_KEYS.includes(key)) {
        errors.push(forbidden(path, `Do not set GPU ${side} in spec.resources.${side}; use spec.gpu.vendor/spec.gpu.count instead`));
      } else if (!matchesQuantityPattern(value)) {
        errors.push(invalid(path, value, 'must be a quantity'));
      }
    }
  }
  return errors;
}

function ratio(errors: FieldError[], path: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1) {
    errors.push(invalid(path, value, 'must be a utilization ratio above 0 and at most 1, such as "0.85"'));
    return undefined;
  }
  return n;
}

function kvCacheErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  const kv = spec.kvCache;
  if (!kv) return errors;
  if (kv.pressurePolicy !== undefined && !KV_PRESSURE_POLICIES.includes(kv.pressurePolicy)) {
    errors.push(notSupported('spec.kvCache.pressurePolicy', kv.pressurePolicy, KV_PRESSURE_POLICIES));
  }
  if (kv.reconfigureStrategy !== undefined && !KV_RECONFIGURE_STRATEGIES.includes(kv.reconfigureStrategy)) {
    errors.push(notSupported('spec.kvCache.reconfigureStrategy', kv.reconfigureStrategy, KV_RECONFIGURE_STRATEGIES));
  }
  const high = ratio(errors, 'spec.kvCache.highWatermark', kv.highWatermark);
  const low = ratio(errors, 'spec.kvCache.lowWatermark', kv.lowWatermark);
  if (high !== undefined && low !== undefined && low >= high) {
    errors.push(invalid('spec.kvCache.lowWatermark', kv.lowWatermark, `must be below highWatermark (${kv.highWatermark})`));
  }
  if (kv.maxBlockSize !== undefined && (!isWholeNumber(kv.maxBlockSize) || kv.maxBlockSize < 1)) {
    errors.push(invalid('spec.kvCache.maxBlockSize', kv.maxBlockSize, 'must be a whole number of tokens, at least 1'));
  }
  if (kv.swapSpace !== undefined && (parseQuantity(kv.swapSpace)?.sign ?? -1) < 0) {
    errors.push(invalid('spec.kvCache.swapSpace', kv.swapSpace, 'must be a non-negative number of GiB'));
  }
  errors.push(...positiveDurationErrors('spec.kvCache.reconfigureCooldown', kv.reconfigureCooldown));
  return errors;
}

function listErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  const labels = spec.serviceLabels ?? [];
  errors.push(...serviceLabelCountErrors('spec.serviceLabels', labels));
  labels.forEach((l, i) => {
    if (!l || l.includes(',')) errors.push(invalid(`spec.serviceLabels[${i}]`, l, 'must be a non-empty label without commas (FlexInfer joins them with commas)'));
  });
  (spec.litellm?.aliases ?? []).forEach((a, i) => {
    if (!a || a.includes(',')) errors.push(invalid(`spec.litellm.aliases[${i}]`, a, 'must be a non-empty model name without commas (FlexInfer joins them with commas)'));
  });
  (spec.tolerations ?? []).forEach((t, i) => {
    const path = `spec.tolerations[${i}]`;
    if (t.operator !== undefined && t.operator !== 'Equal' && t.operator !== 'Exists') errors.push(notSupported(`${path}.operator`, t.operator, ['Equal', 'Exists']));
    if (t.operator === 'Exists' && t.value) errors.push(invalid(`${path}.value`, t.value, 'must be empty when operator is Exists'));
    if (!t.key && t.operator !== 'Exists') errors.push(required(`${path}.key`, 'a toleration without a key must use operator Exists'));
    if (t.effect !== undefined && t.effect !== '' && !['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(t.effect)) {
      errors.push(notSupported(`${path}.effect`, t.effect, ['NoSchedule', 'PreferNoSchedule', 'NoExecute']));
    }
  });
  return errors;
}

/**
 * Every rule the pinned Model CRD, its CEL validations and the seed impose on `spec`, as field
 * errors under `spec.`:
 *
 * - `backend` set; `source` an `HF://org/model`, `ollama://model:tag` (ollama backend only),
 *   `file:///abs/path` or `pvc://claim[/path]` URI (FlexInfer matches the scheme exactly);
 * - `gpu`: vendor auto|nvidia|amd|cpu, count 1–8, priority 0–1000, `vramEstimateMB` ≥ 1,
 *   `swapCooldown` a Go duration, `shared` a label value; with vendor cpu no count, no `vramEstimateMB`, no `shared`
 *   (CEL); a GPU-only backend neither on vendor cpu nor without `gpu` (the seed: a Model without
 *   `gpu` runs CPU-only); `priority` and `swapCooldown` only in a shared group; the
 *   `node.flexstack.io/gpu-vendor` node selector agreeing with a non-auto vendor (CEL);
 * - `serverless`: `minReplicas` 0–10, timeouts positive Go durations, none of them when
 *   serverless is disabled;
 * - `cache`: strategy Memory|SharedPVC|Local|None, not Memory with a `pvc://` source (CEL);
 *   `pvcName`/`storageClass`/`size` only for SharedPVC and `hostPath` only for Local;
 * - `resources`: no `nvidia.com/gpu`, `amd.com/gpu` or `gpu.intel.com/i915` (CEL);
 * - `kvCache`: its enums, watermarks ratios with low below high;
 * - `serviceLabels` at most 10; labels and LiteLLM aliases non-empty and comma-free;
 * - tolerations well-formed.
 */
export function modelSpecErrors(spec: ModelSpecJson): FieldError[] {
  const errors: FieldError[] = [];
  if (!spec.backend) errors.push(required('spec.backend', 'a Model needs a backend, e.g. vllm or llamacpp'));
  errors.push(...sourceErrors(spec));
  errors.push(...gpuErrors(spec));
  errors.push(...serverlessErrors(spec));
  errors.push(...cacheErrors(spec));
  errors.push(...resourceErrors(spec));
  errors.push(...kvCacheErrors(spec));
  errors.push(...listErrors(spec));
  return errors;
}
