/**
 * What Kthena refuses in a ModelBooster (the CRD's patterns and ranges, and the rules of its
 * validating webhook, `pkg/model-booster-controller/webhook`), plus what its converter would turn
 * into children the API server refuses; checked on the construct's props and reported at the
 * field of the synthesized object.
 */
import { KthenaBackendType, KthenaWorkerType } from './booster-types';
import { imageErrors, integerErrors, MAX_KTHENA_REPLICAS } from './checks';
import type { KthenaBoosterBackend, KthenaBoosterWorker, KthenaModelBoosterProps } from './model-booster-props';
import { generatedNameProblems, generatedRoleName, ServingRoleShape } from './model-serving-rules';
import { FieldError, fieldPath, invalid, required } from '../core/field-error';
import { dnsSubdomainErrors } from '../core/kubernetes-names';

/** `spec.name` and `backend.name`: lowercase letters, digits and `-`. */
const NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const MAX_SERVED_NAME_LENGTH = 64;
/** The schemes Kthena's downloader fetches from. */
const MODEL_URI_PATTERN = /^(hf:\/\/|s3:\/\/|obs:\/\/|pvc:\/\/|ms:\/\/).+/;
/** The cache volumes Kthena's converter mounts. */
const CACHE_URI_PATTERN = /^(hostpath:\/\/|pvc:\/\/).+/;
const PVC_SCHEME = 'pvc://';
/** `backend.workers`. */
const MAX_WORKERS = 1000;
/** vLLM's port when `config.port` is not set. */
const DEFAULT_ENGINE_PORT = 8000;
/** The KV connectors Kthena's webhook accepts in `kv-transfer-config`. */
const KV_CONNECTORS = ['MooncakeConnector', 'MooncakeConnectorV1', 'NixlConnector', 'LMCacheConnectorV1'];
const PRODUCER_ROLES = ['kv_producer', 'kv_both'];
const CONSUMER_ROLES = ['kv_consumer', 'kv_both'];
/** The roles of the ModelServing Kthena's templates derive from each backend type. */
const VLLM_ROLE = 'leader';

const BACKEND = 'spec.backend';

function workerType(w: KthenaBoosterWorker): KthenaWorkerType {
  return w.workerType ?? KthenaWorkerType.SERVER;
}

/**
 * Every rule of the ModelBooster the props can break:
 *
 * - `spec.name` (at most 64 characters) and `backend.name` are lowercase DNS-style names;
 * - `modelURI` is `hf://`, `s3://`, `obs://`, `pvc://` or `ms://`, `cacheURI` `pvc://` or
 *   `hostpath://`, a `pvc://` cache names one claim, and a `pvc://` model lies on that claim
 *   (`pvcErrors`);
 * - replicas, worker replicas and pods 0 to 1000000, 1 to 1000 workers;
 * - vLLM: exactly one worker, a `server`; vLLMDisaggregated: one `prefill` and one `decode`;
 * - images not blank and without whitespace; one engine port (`config.port`, 1 to 65535) for all
 *   serving workers; prefill and decode agree on `kv-transfer-config` (`kvTransferErrors`);
 * - the pod names Kthena derives for the ModelServing it creates fit a DNS-1035 label.
 */
export function modelBoosterErrors(boosterName: string, props: KthenaModelBoosterProps): FieldError[] {
  const b = props.backend;
  const errors: FieldError[] = [];
  const served = props.servedModelName;
  if (served !== undefined && (served.length > MAX_SERVED_NAME_LENGTH || !NAME_PATTERN.test(served))) {
    errors.push(invalid('spec.name', served, `must be at most ${MAX_SERVED_NAME_LENGTH} lowercase letters, digits and '-', starting and ending with a letter or digit`));
  }
  if (!NAME_PATTERN.test(b.name)) {
    errors.push(invalid(`${BACKEND}.name`, b.name, "must be lowercase letters, digits and '-', starting and ending with a letter or digit"));
  }
  if (!MODEL_URI_PATTERN.test(b.modelUri)) {
    errors.push(invalid(`${BACKEND}.modelURI`, b.modelUri, 'must start with hf://, ms://, s3://, obs:// or pvc:// and name something after it'));
  }
  if (!CACHE_URI_PATTERN.test(b.cacheUri)) {
    errors.push(invalid(`${BACKEND}.cacheURI`, b.cacheUri, 'must be pvc://<claim> or hostpath://<path>'));
  }
  errors.push(...pvcErrors(b));
  errors.push(...integerErrors(`${BACKEND}.replicas`, b.replicas, 0, MAX_KTHENA_REPLICAS, 'ServingGroups'));
  if (b.workers.length === 0) errors.push(required(`${BACKEND}.workers`, 'a backend needs at least one worker'));
  if (b.workers.length > MAX_WORKERS) errors.push(invalid(`${BACKEND}.workers`, `${b.workers.length} workers`, `Kthena allows at most ${MAX_WORKERS}`));
  b.workers.forEach((w, i) => {
    const at = fieldPath(`${BACKEND}.workers`, i);
    errors.push(...integerErrors(`${at}.replicas`, w.replicas, 0, MAX_KTHENA_REPLICAS, 'instances of the worker'));
    errors.push(...integerErrors(`${at}.pods`, w.pods, 0, MAX_KTHENA_REPLICAS, 'pods per instance'));
    errors.push(...imageErrors(`${at}.image`, w.image));
  });
  errors.push(...workerTypeErrors(b));
  errors.push(...enginePortErrors(b));
  errors.push(...kvTransferErrors(b));
  errors.push(...generatedNameErrors(boosterName, b));
  return errors;
}

/**
 * Kthena's webhook: a vLLM backend has exactly one worker, of type `server`; a vLLMDisaggregated
 * backend only `prefill` and `decode` workers, at most one of each. Kthena's `vllm-pd` template
 * builds its prefill and decode roles from those two, so both are required here.
 */
function workerTypeErrors(b: KthenaBoosterBackend): FieldError[] {
  const errors: FieldError[] = [];
  const path = `${BACKEND}.workers`;
  if (b.backendType === KthenaBackendType.VLLM) {
    if (b.workers.length !== 1) {
      errors.push(invalid(path, `${b.workers.length} workers`, 'a vLLM backend has exactly one worker, of type server'));
    } else if (workerType(b.workers[0]) !== KthenaWorkerType.SERVER) {
      errors.push(invalid(`${path}[0].type`, workerType(b.workers[0]), 'a vLLM backend\'s worker must be of type server'));
    }
    return errors;
  }
  b.workers.forEach((w, i) => {
    const t = workerType(w);
    if (t !== KthenaWorkerType.PREFILL && t !== KthenaWorkerType.DECODE) {
      errors.push(invalid(fieldPath(path, i) + '.type', t, 'a vLLMDisaggregated backend has only prefill and decode workers'));
    }
  });
  for (const t of [KthenaWorkerType.PREFILL, KthenaWorkerType.DECODE]) {
    const count = b.workers.filter((w) => workerType(w) === t).length;
    if (count !== 1) errors.push(invalid(path, `${count} ${t} workers`, `a vLLMDisaggregated backend has exactly one ${t} worker`));
  }
  return errors;
}

/**
 * The `pvc://` rules: a `pvc://` cache names one claim (`pvc://<claim>`, mounted at `/<claim>`);
 * a `pvc://` model needs a `pvc://` cache, and its path (`pvc:///<claim>/<path>`) must lie under
 * the cache mount without `..`, because the downloader reads it through that mount only.
 */
function pvcErrors(b: KthenaBoosterBackend): FieldError[] {
  const errors: FieldError[] = [];
  const cacheClaim = b.cacheUri.startsWith(PVC_SCHEME) ? b.cacheUri.slice(PVC_SCHEME.length) : undefined;
  if (cacheClaim !== undefined && cacheClaim !== '') {
    const problems = cacheClaim.includes('/') ? ['has a path; give only the claim'] : dnsSubdomainErrors(cacheClaim);
    if (problems.length > 0) errors.push(invalid(`${BACKEND}.cacheURI`, b.cacheUri, `must name one PersistentVolumeClaim (pvc://<claim>): ${problems.join('; ')}`));
  }
  if (!b.modelUri.startsWith(PVC_SCHEME)) return errors;
  const modelPath = b.modelUri.slice(PVC_SCHEME.length);
  if (cacheClaim === undefined) {
    errors.push(invalid(`${BACKEND}.cacheURI`, b.cacheUri, 'a pvc:// modelURI needs a pvc:// cacheURI naming the same claim: the downloader reads the model through the cache mount'));
    return errors;
  }
  if (modelPath.split('/').includes('..')) {
    errors.push(invalid(`${BACKEND}.modelURI`, b.modelUri, 'must not contain ".."'));
  }
  const mount = `/${cacheClaim}`;
  if (modelPath !== mount && !modelPath.startsWith(`${mount}/`)) {
    errors.push(invalid(`${BACKEND}.modelURI`, b.modelUri, `must be a path under the cache mount ${mount} (pvc://${mount}/<path>), on the claim of cacheURI`));
  }
  return errors;
}

/** Workers that run the engine's API server (and so its port). */
function servingWorkers(b: KthenaBoosterBackend): Array<[KthenaBoosterWorker, number]> {
  const serving = [KthenaWorkerType.SERVER, KthenaWorkerType.PREFILL, KthenaWorkerType.DECODE];
  return b.workers.map((w, i) => [w, i] as [KthenaBoosterWorker, number]).filter(([w]) => serving.includes(workerType(w)));
}

/** Kthena serves every worker of a backend behind one ModelServer port: `config.port` must agree. */
function enginePortErrors(b: KthenaBoosterBackend): FieldError[] {
  const errors: FieldError[] = [];
  const ports: Array<[number, string]> = [];
  for (const [w, i] of servingWorkers(b)) {
    const at = `${fieldPath(`${BACKEND}.workers`, i)}.config.port`;
    const raw = w.config?.port;
    const port = raw === undefined ? DEFAULT_ENGINE_PORT : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
      errors.push(invalid(at, raw, 'must be a port from 1 to 65535'));
      continue;
    }
    ports.push([port, at]);
  }
  const distinct = [...new Set(ports.map(([p]) => p))];
  if (distinct.length > 1) {
    errors.push(invalid(ports[1][1], ports.map(([p]) => p).join(', '),
      `all serving workers must use one engine port (config.port, ${DEFAULT_ENGINE_PORT} when unset): the ModelServer Kthena creates has a single port`));
  }
  return errors;
}

/** The worker's `kv-transfer-config` (either spelling), parsed, or why it cannot be read. */
function kvTransferConfig(w: KthenaBoosterWorker): { key?: string; value?: any; problem?: string } {
  const key = ['kv-transfer-config', 'kv_transfer_config'].find((k) => w.config?.[k] !== undefined);
  if (key === undefined) return {};
  const raw = w.config![key];
  if (typeof raw !== 'string') {
    return { key, problem: 'must be a JSON string: Kthena renders an object in Go\'s map syntax, which vLLM cannot parse' };
  }
  try {
    const value = JSON.parse(raw);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { key, problem: 'must be a JSON object' };
    return { key, value };
  } catch {
    return { key, problem: 'is not valid JSON' };
  }
}

/**
 * Kthena's webhook: when prefill and decode workers configure KV transfer, they both name the same
 * `kv_connector`, one Kthena knows, the prefill side as a producer and the decode side as a
 * consumer (`kv_both` counts as either).
 */
function kvTransferErrors(b: KthenaBoosterBackend): FieldError[] {
  if (b.backendType !== KthenaBackendType.VLLM_DISAGGREGATED) return [];
  const errors: FieldError[] = [];
  const sides: Array<{ type: KthenaWorkerType; at: string; connector?: string; declared: boolean }> = [];
  b.workers.forEach((w, i) => {
    const t = workerType(w);
    if (t !== KthenaWorkerType.PREFILL && t !== KthenaWorkerType.DECODE) return;
    const { key, value, problem } = kvTransferConfig(w);
    const at = `${fieldPath(`${BACKEND}.workers`, i)}.config.${key ?? 'kv-transfer-config'}`;
    if (problem) {
      errors.push(invalid(at, w.config![key!], problem));
      sides.push({ type: t, at, declared: true });
      return;
    }
    if (!value) {
      sides.push({ type: t, at, declared: false });
      return;
    }
    const connector = value.kv_connector;
    if (!KV_CONNECTORS.includes(connector)) {
      errors.push(invalid(`${at}.kv_connector`, connector, `must be one of ${KV_CONNECTORS.join(', ')}`));
    }
    const roles = t === KthenaWorkerType.PREFILL ? PRODUCER_ROLES : CONSUMER_ROLES;
    if (!roles.includes(value.kv_role)) {
      errors.push(invalid(`${at}.kv_role`, value.kv_role, `a ${t} worker's kv_role must be ${roles.join(' or ')}`));
    }
    sides.push({ type: t, at, connector, declared: true });
  });
  const declared = sides.filter((s) => s.declared);
  if (declared.length > 0 && declared.length < sides.length) {
    const missing = sides.find((s) => !s.declared)!;
    errors.push(required(missing.at, 'the other side sets kv-transfer-config; prefill and decode workers must both configure KV transfer'));
  }
  const connectors = [...new Set(declared.map((s) => s.connector).filter((c) => c !== undefined))];
  if (connectors.length > 1) {
    errors.push(invalid(declared[declared.length - 1].at + '.kv_connector', connectors.join(', '), 'prefill and decode workers must use the same kv_connector'));
  }
  return errors;
}

/**
 * Kthena creates the ModelServing `<booster>-<backend>`, whose webhook requires
 * `<name>-<replicas>-<role>-<role replicas>-<worker replicas>` to be a DNS-1035 label for each
 * role (role `leader` with `pods - 1` workers for vLLM; `prefill` and `decode` without workers
 * for vLLMDisaggregated). A booster that breaks it is accepted, and its ModelServing then refused.
 */
function generatedNameErrors(boosterName: string, b: KthenaBoosterBackend): FieldError[] {
  const servingName = `${boosterName}-${b.name}`;
  const replicas = b.replicas ?? 1;
  const roles: ServingRoleShape[] = b.backendType === KthenaBackendType.VLLM
    ? b.workers.slice(0, 1).map((w) => ({ name: VLLM_ROLE, replicas: w.replicas ?? 1, workerReplicas: Math.max((w.pods ?? 1) - 1, 0) }))
    : b.workers.map((w) => ({ name: workerType(w), replicas: w.replicas ?? 1, workerReplicas: 0 }));
  const errors: FieldError[] = [];
  for (const role of roles) {
    const generated = generatedRoleName(servingName, replicas, role);
    if (generatedNameProblems(generated).length === 0) continue;
    errors.push(invalid('metadata.name', boosterName,
      `Kthena's ModelServing ${servingName} would derive the pod name "${generated}" for role ${role.name}, which is not a DNS-1035 label ` +
        '(at most 63 characters, starting with a letter), so Kthena would refuse it; use a shorter booster or backend name'));
  }
  return errors;
}
