/**
 * The device requests of each engine of a deployment: for the aggregated serving engine the
 * `resources` requests, for the prefill and decode engines theirs — read from the deployment's
 * `inference.cdk8s.io/devices` annotation (which the typed `GpuOptions.devices` write, so both faces
 * give the same requests), or, when a component has none, made from its `gpu` block
 * (./gpu-device-request). Every engine needs some: modelplane places engines by them. Requests
 * are per pod: a multi-node engine's members each request `gpusPerNode` GPUs (`podGpuCount`), as
 * device requests given in the annotation already are.
 */
import { CPU_SERVING, lacking } from './features';
import { gpuDeviceRequest } from './gpu-device-request';
import type { CheckedDeviceRequest } from '../../api/devices/device-request';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';
import { fieldPath, FieldError } from '../../core/field-error';
import type { GpuSpec } from '../../core/generated/model-deployment-spec';
import { gpuTypeOf } from '../../core/gpu-type';
import { deviceRequestLimitErrors } from '../../modelplane/node-selector';
import { DEVICES_ANNOTATION_PATH, DeviceComponent, deviceRequestsOf } from '../../provider-kit/device-annotation';
import { podGpuCount } from '../../provider-kit/multi-node-layout';

/** The requests of one engine and where they came from. */
export interface ComponentDevices {
  readonly component: DeviceComponent;
  readonly requests: readonly CheckedDeviceRequest[];
  /** True when made from the `gpu` block rather than given as DRA device requests. */
  readonly fromGpu: boolean;
}

/** `spec.resources.gpu`, `spec.scaling.prefill.gpu` or `spec.scaling.decode.gpu`. */
export function gpuPathOf(component: DeviceComponent): string {
  return component === 'resources' ? 'spec.resources.gpu' : fieldPath('spec', 'scaling', component, 'gpu');
}

function gpuOf(md: ResolvedModelDeployment, component: DeviceComponent): GpuSpec | undefined {
  return component === 'resources' ? md.spec.resources?.gpu : md.spec.scaling?.[component]?.gpu;
}

/** The requests of `component`, or the errors (modelplane's limits, an unmappable GPU, none at all). */
export function componentDevices(md: ResolvedModelDeployment, component: DeviceComponent): { devices?: ComponentDevices; errors: FieldError[] } {
  const given = deviceRequestsOf(md.annotations, component);
  if (given.length > 0) {
    const errors = deviceRequestLimitErrors(given, `${DEVICES_ANNOTATION_PATH}.${component}`);
    return errors.length > 0 ? { errors } : { devices: { component, requests: given, fromGpu: false }, errors };
  }
  const gpu = gpuOf(md, component);
  const gpuPath = gpuPathOf(component);
  const count = gpu?.count ?? 0;
  if (!(count > 0)) {
    return {
      errors: [lacking(`${gpuPath}.count`, count, CPU_SERVING,
        'modelplane places every engine by its device requests, so each needs GPUs (gpu.count) or DRA device requests')],
    };
  }
  const made = gpuDeviceRequest(gpuTypeOf(gpu), podGpuCount(md, component), gpuPath);
  return made.request ? { devices: { component, requests: [made.request], fromGpu: true }, errors: [] } : { errors: made.errors };
}
