import { workerNodesErrors } from './deployment-rules';
import { EngineParts, engineSpec, MemberParts } from './engine-spec';
import { envVarJson, EnvVarJson } from './env-var';
import { MAX_ENGINE_COPIES } from './limits';
import { annotationErrors, entriesAt, labelErrors } from './metadata-rules';
import { deviceRequestLimitErrors } from './node-selector';
import { ModelplaneEnginePhase } from './serving';
import { CheckedDeviceRequest, readDeviceRequests } from '../api/devices/device-request';
import { DeviceRequest, deviceRequestSpec } from '../api/devices/devices';
import { FieldError, fieldPath, invalid, required } from '../core/field-error';
import { k8s } from '../core/kube-api';
import { dnsLabelErrors } from '../core/kubernetes-names';
import * as modelplane from '../imports/modelplane.ai';

/** The `engine` container of a member's pods. */
export interface ModelplaneContainer {
  /** Container image, e.g. `vllm/vllm-openai:v0.33.0`. */
  readonly image: string;

  /**
   * Entrypoint. For a Leader and its Workers the command does the cross-node wiring, through
   * `$(MODELPLANE_LEADER_ADDRESS)` and `$(MODELPLANE_RANK)`, which modelplane sets.
   * @default - the image's entrypoint
   */
  readonly command?: string[];

  /**
   * Arguments, e.g. `['--model=Qwen/Qwen3-8B', '--tensor-parallel-size=2']`. modelplane injects
   * none besides `--model=/mnt/models` when a ModelCache is referenced, there is no `command`
   * and no `--model` argument.
   * @default - none
   */
  readonly args?: string[];

  /**
   * Environment variables: a value, or a value from a Secret key, a ConfigMap key or a pod field
   * (modelplane's engine container takes no other source).
   * @default - none
   */
  readonly env?: k8s.EnvVar[];
}

/** The Workers of a Leader/Worker engine: one pod per node, joining the Leader. */
export interface ModelplaneWorkersOptions {
  /** Worker pods, one per node (1 to 63); the engine spans `1 + nodes` nodes. */
  readonly nodes: number;

  /**
   * The Workers' container.
   * @default - the Leader's container
   */
  readonly container?: ModelplaneContainer;

  /**
   * DRA device requests of each Worker pod (per node).
   * @default - the Leader's devices
   */
  readonly devices?: DeviceRequest[];

  /**
   * Labels of the Worker pods.
   * @default - none
   */
  readonly podLabels?: { [key: string]: string };

  /**
   * Annotations of the Worker pods.
   * @default - none
   */
  readonly podAnnotations?: { [key: string]: string };
}

/** One engine of a modelplane deployment: a Standalone pod, or a Leader with Workers. */
export interface ModelplaneEngineOptions {
  /** Engine name (a DNS label of at most 63 characters); part of the composed workload names. */
  readonly name: string;

  /**
   * Identical copies of the engine in each ModelReplica (1 to 64), fixed: modelplane scales by
   * ModelReplicas, never by copies.
   * @default 1
   */
  readonly copies?: number;

  /**
   * The engine's phase; required, one engine each, in `ModelplaneServingMode.PREFILL_DECODE`,
   * and refused otherwise.
   * @default - none
   */
  readonly phase?: ModelplaneEnginePhase;

  /** The `engine` container of the Standalone (or Leader) pod. */
  readonly container: ModelplaneContainer;

  /**
   * DRA device requests of the Standalone (or Leader) pod, per node: modelplane's scheduler
   * matches them against InferenceClass devices and claims the matched devices on the workload
   * cluster. Each request needs at least one selector. A Standalone engine must request devices;
   * a Leader may leave them out (a coordinator-only Leader) when its Workers request some.
   * @default - none
   */
  readonly devices?: DeviceRequest[];

  /**
   * Labels of the Standalone (or Leader) pod. Keys under `modelplane.ai/` are reserved.
   * @default - none
   */
  readonly podLabels?: { [key: string]: string };

  /**
   * Annotations of the Standalone (or Leader) pod.
   * @default - none
   */
  readonly podAnnotations?: { [key: string]: string };

  /**
   * Workers that make this engine a Leader/Worker gang spanning nodes.
   * @default - a single Standalone pod
   */
  readonly workers?: ModelplaneWorkersOptions;
}

/** Devices checked by the shared DRA reader, then against modelplane's limits. */
function memberDevices(devices: DeviceRequest[] | undefined, path: string, errors: FieldError[]): CheckedDeviceRequest[] | undefined {
  if (devices === undefined) return undefined;
  const read = readDeviceRequests(devices.map(deviceRequestSpec), path);
  errors.push(...read.errors, ...deviceRequestLimitErrors(read.requests, path));
  return read.requests;
}

function containerEnv(container: ModelplaneContainer, path: string, errors: FieldError[]): EnvVarJson[] {
  const env: EnvVarJson[] = [];
  (container.env ?? []).forEach((e, i) => {
    const json = k8s.toJson_EnvVar(e) as { name: string; value?: string; valueFrom?: unknown };
    const at = fieldPath(`${path}.env`, i);
    const result = envVarJson(json.name, json.value, json.valueFrom);
    errors.push(...result.problems.map((p) => invalid(`${at}.${p.field}`, p.value, p.message)));
    if (result.env) env.push(result.env);
  });
  return env;
}

function containerErrors(container: ModelplaneContainer, path: string): FieldError[] {
  return container.image === '' ? [required(`${path}.image`, 'the engine container needs an image')] : [];
}

type StringMap = { [key: string]: string } | undefined;

function podMetadataErrors(labels: StringMap, annotations: StringMap, path: string): FieldError[] {
  return [
    ...labelErrors(entriesAt(labels, `${path}.podLabels`), `${path}.podLabels`),
    ...annotationErrors(entriesAt(annotations, `${path}.podAnnotations`), `${path}.podAnnotations`),
  ];
}

/**
 * The engine in the XRD's shape and every problem with it, at `path` (`engines[0]`): name,
 * copies, container, devices (the shared DRA checks, then modelplane's limits), pod metadata,
 * workers, and the XRD's rule that some member requests devices.
 * @internal
 */
export function renderEngine(
  options: ModelplaneEngineOptions,
  path: string,
  imagePullSecrets: readonly string[],
): { engine: modelplane.ModelDeploymentSpecTemplateSpecEngines; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const nameProblems = dnsLabelErrors(options.name);
  if (nameProblems.length > 0) errors.push(invalid(`${path}.name`, options.name, nameProblems.join('; ')));
  const copies = options.copies;
  if (copies !== undefined && (!Number.isInteger(copies) || copies < 1 || copies > MAX_ENGINE_COPIES)) {
    errors.push(invalid(`${path}.copies`, copies, `must be a whole number from 1 to ${MAX_ENGINE_COPIES}`));
  }
  errors.push(...containerErrors(options.container, `${path}.container`));
  const env = containerEnv(options.container, `${path}.container`, errors);
  const devices = memberDevices(options.devices, `${path}.devices`, errors);
  errors.push(...podMetadataErrors(options.podLabels, options.podAnnotations, path));
  const leader: MemberParts = { container: { ...options.container, env }, devices, labels: options.podLabels, annotations: options.podAnnotations };

  const workers = options.workers;
  let workerParts: EngineParts['workers'];
  if (workers !== undefined) {
    const at = `${path}.workers`;
    errors.push(...workerNodesErrors(workers.nodes, `${at}.nodes`));
    const container = workers.container ?? options.container;
    if (workers.container) errors.push(...containerErrors(workers.container, `${at}.container`));
    const workerEnv = workers.container ? containerEnv(workers.container, `${at}.container`, errors) : env;
    const workerDevices = workers.devices !== undefined ? memberDevices(workers.devices, `${at}.devices`, errors) : devices;
    errors.push(...podMetadataErrors(workers.podLabels, workers.podAnnotations, at));
    workerParts = {
      nodes: workers.nodes,
      member: { container: { ...container, env: workerEnv }, devices: workerDevices, labels: workers.podLabels, annotations: workers.podAnnotations },
    };
  }
  // Devices that were given but refused are reported where they are; only none at all is this error.
  if (options.devices === undefined && workers?.devices === undefined) {
    errors.push(required(`${path}.devices`,
      'modelplane places an engine by its device requests, and at least one of its pods must request devices; give devices (each with a selector)'));
  }
  return {
    engine: engineSpec({ name: options.name, copies, phase: options.phase, leader, workers: workerParts, imagePullSecrets }),
    errors,
  };
}
