/**
 * Where a deployment's DRA device requests live: AI Runway's ModelDeployment has no field for
 * them, so they are the annotation `inference.cdk8s.io/devices`, whose value is YAML (or JSON)
 * with one list of requests per place a `gpu` block can be:
 *
 * ```yaml
 * metadata:
 *   annotations:
 *     inference.cdk8s.io/devices: |
 *       resources:              # the serving pods of an aggregated deployment
 *         - name: gpu
 *           deviceClassName: gpu.nvidia.com
 *           count: 1
 *           selectors:
 *             - memoryAtLeast: 40Gi
 *       # prefill: [...]        # the prefill pods of a disaggregated deployment
 *       # decode: [...]         # and its decode pods
 * ```
 *
 * The typed construct writes the same annotation from `resources.gpu.devices` and
 * `scaling.{prefill,decode}.gpu.devices`, so both faces build one object and the record says
 * what was claimed.
 */
import { podGpuCount } from './multi-node-layout';
import { CheckedDeviceRequest, readDeviceRequests } from '../api/devices/device-request';
import { GPUS_PER_NODE_PATH } from '../api/multi-node/multi-node-annotation';
import { Annotations, cachedAnnotationReader, parseAnnotationMapping } from '../core/annotation-yaml';
import { FieldError, invalid } from '../core/field-error';
import type { ModelDeploymentSpec } from '../core/generated/model-deployment-spec';
import { resolvedServingMode, ServingModeName } from '../core/model-deployment-object';

/** ModelDeployment annotation holding the device requests. */
export const DEVICES_ANNOTATION = 'inference.cdk8s.io/devices';

/** Field path of the annotation, in messages. */
export const DEVICES_ANNOTATION_PATH = `metadata.annotations[${JSON.stringify(DEVICES_ANNOTATION)}]`;


/** The pods a list of requests applies to, named like the `gpu` block they stand beside. */
export type DeviceComponent = 'resources' | 'prefill' | 'decode';

/** The components a serving mode runs: `resources` when aggregated, prefill and decode when disaggregated. */
export function componentsOf(mode: ServingModeName): readonly DeviceComponent[] {
  return mode === 'disaggregated' ? ['prefill', 'decode'] : ['resources'];
}

/** The requests of each component that has some. */
export type DeviceRequestsByComponent = Partial<Record<DeviceComponent, readonly CheckedDeviceRequest[]>>;

/** Larger values are refused before parsing: a few hundred requests fit in far less. */
export const MAX_DEVICES_ANNOTATION_BYTES = 64 * 1024;

const COMPONENTS: readonly DeviceComponent[] = ['resources', 'prefill', 'decode'];

/**
 * The device requests of a deployment, or the problems of its annotation (each with its field
 * path under the annotation). No annotation: no requests, no errors.
 */
export const readDevicesAnnotation: (annotations: Annotations) => { requests: DeviceRequestsByComponent; errors: FieldError[] } =
  cachedAnnotationReader(DEVICES_ANNOTATION, parseDevices, { requests: {}, errors: [] });

/**
 * The problems of the annotation for a deployment: its own; requests given for pods its serving
 * mode does not run (prefill requests on an aggregated deployment, say); and a component whose
 * `gpu.count` is more than the devices it claims, since claimed devices replace the GPU request.
 */
export function devicesAnnotationErrors(annotations: Annotations, spec: ModelDeploymentSpec): FieldError[] {
  const read = readDevicesAnnotation(annotations);
  if (read.errors.length > 0) return read.errors;
  // A new list: the parsed annotation is cached and shared by every deployment with the same text.
  const errors: FieldError[] = [];
  const requests = read.requests;
  const mode = resolvedServingMode(spec);
  const used = componentsOf(mode);
  for (const c of COMPONENTS) {
    const list = requests[c];
    if (list === undefined) continue;
    if (!used.includes(c)) {
      errors.push(invalid(`${DEVICES_ANNOTATION_PATH}.${c}`, `${list.length} request(s)`,
        `${mode === 'aggregated' ? 'an' : 'a'} ${mode} deployment runs no ${c === 'resources' ? 'aggregated serving' : c} pods; put the requests under ${used.join(' and ')}`));
      continue;
    }
    const gpuPath = c === 'resources' ? 'spec.resources.gpu' : `spec.scaling.${c}.gpu`;
    const gpus = (c === 'resources' ? spec.resources?.gpu : spec.scaling?.[c]?.gpu)?.count ?? 0;
    // Each pod claims its own devices: one pod of a multi-node replica uses gpusPerNode of them.
    const podGpus = podGpuCount({ annotations, spec }, c);
    const claimed = list.reduce((sum, r) => sum + r.count, 0);
    if (podGpus > claimed) {
      const uses = podGpus === gpus ? 'every GPU the engine uses' : `the ${podGpus} GPUs (${GPUS_PER_NODE_PATH}) each pod of a multi-node replica uses`;
      errors.push(invalid(`${gpuPath}.count`, gpus,
        `is more than the ${claimed} device(s) claimed under ${DEVICES_ANNOTATION_PATH}.${c}: pods that claim devices request no ${gpuPath}.type, ` +
          `so the claim must hold ${uses}; raise the request counts or lower gpu.count`));
    }
  }
  return errors;
}

/** Whether the deployment claims devices through DRA for any of its pods. */
export function hasDeviceRequests(annotations: Annotations): boolean {
  return annotations?.[DEVICES_ANNOTATION] !== undefined;
}

/** The requests of one component (empty when it has none or the annotation is invalid). */
export function deviceRequestsOf(annotations: Annotations, component: DeviceComponent): readonly CheckedDeviceRequest[] {
  return readDevicesAnnotation(annotations).requests[component] ?? [];
}

function parseDevices(value: string): { requests: DeviceRequestsByComponent; errors: FieldError[] } {
  const parsed = parseAnnotationMapping(value, DEVICES_ANNOTATION_PATH, MAX_DEVICES_ANNOTATION_BYTES,
    `a mapping with a list of device requests under ${COMPONENTS.join(', ')}`);
  const doc = parsed.doc;
  if (!doc) return { requests: {}, errors: parsed.errors };
  const errors: FieldError[] = [];
  const requests: Partial<Record<DeviceComponent, CheckedDeviceRequest[]>> = {};
  for (const [key, list] of Object.entries(doc)) {
    if (!(COMPONENTS as readonly string[]).includes(key)) {
      errors.push(invalid(`${DEVICES_ANNOTATION_PATH}.${key}`, list, `unknown key; the requests go under ${COMPONENTS.join(', ')}`));
      continue;
    }
    const read = readDeviceRequests(list, `${DEVICES_ANNOTATION_PATH}.${key}`);
    errors.push(...read.errors);
    requests[key as DeviceComponent] = read.requests;
  }
  if (errors.length === 0 && Object.keys(requests).length === 0) {
    return { requests: {}, errors: [invalid(DEVICES_ANNOTATION_PATH, value, `lists no device requests; give them under ${COMPONENTS.join(', ')}, or remove the annotation`)] };
  }
  return errors.length > 0 ? { requests: {}, errors } : { requests, errors };
}
