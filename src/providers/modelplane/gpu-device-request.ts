/**
 * The device request equivalent to a plain `gpu: {count, type}` block, for deployments that ask
 * for GPUs without DRA device requests. modelplane has no extended-resource GPU request: an
 * engine gets GPUs only through `nodeSelector.devices`, so `count` GPUs of `type` become one
 * request named `gpu` for `count` devices whose driver is the DRA driver of that vendor.
 *
 * Why this is sound: modelplane evaluates the selector against the devices an InferenceClass
 * declares (`driver`, `attributes`, `capacity`), and the claim it composes on the workload cluster
 * repeats it against the driver's real devices. "`count` devices of driver D per pod" is what
 * "`count` GPUs of vendor V per pod" means when D is V's DRA driver — as long as the type names
 * whole GPUs. So only the whole-GPU types with a known DRA driver are mapped; a partition type (an
 * NVIDIA MIG profile such as `nvidia.com/mig-1g.10gb`, AMD's partition resources) or an unknown
 * vendor would select whole GPUs or nothing, and is refused with a pointer to device requests.
 *
 * The request is built through the project's one DRA reader (src/api/devices/device-request.ts) from a
 * typed `driver` selector, so its CEL is exactly what `DeviceSelector.driver(...)` renders.
 */
import { GPU_EXTENDED_RESOURCE, lacking } from './features';
import { CheckedDeviceRequest, MAX_ALLOCATED_DEVICES, readDeviceRequests } from '../../api/devices/device-request';
import { FieldError, invalid } from '../../core/field-error';

/** Name of the request made from a `gpu` block. */
export const GPU_DEVICE_REQUEST_NAME = 'gpu';

/**
 * Whole-GPU extended resource names and the DRA driver (also the name of the DeviceClass the
 * driver installs) that publishes those GPUs.
 */
export const GPU_TYPE_DRIVERS: Readonly<Record<string, string>> = {
  'nvidia.com/gpu': 'gpu.nvidia.com',
  'amd.com/gpu': 'gpu.amd.com',
  'gpu.intel.com/i915': 'gpu.intel.com',
  'gpu.intel.com/xe': 'gpu.intel.com',
};

/**
 * The request for `count` GPUs of `gpuType` at `gpuPath` (`spec.resources.gpu`), or the error
 * that prevents it.
 */
export function gpuDeviceRequest(gpuType: string, count: number, gpuPath: string): { request?: CheckedDeviceRequest; errors: FieldError[] } {
  const driver = GPU_TYPE_DRIVERS[gpuType];
  if (driver === undefined) {
    return {
      errors: [lacking(`${gpuPath}.type`, gpuType, GPU_EXTENDED_RESOURCE,
        `modelplane requests GPUs as DRA devices, and only whole GPUs of a known DRA driver (${Object.keys(GPU_TYPE_DRIVERS).join(', ')}) ` +
          'can be requested from gpu.count and gpu.type alone; give DRA device requests that select these devices (GpuOptions.devices, ' +
          'or the inference.cdk8s.io/devices annotation)')],
    };
  }
  // The claim modelplane composes asks for `count` devices; DRA allocates at most this many per claim.
  if (count > MAX_ALLOCATED_DEVICES) {
    return {
      errors: [invalid(`${gpuPath}.count`, count,
        `modelplane claims the GPUs of a pod through one DRA claim, which is allocated at most ${MAX_ALLOCATED_DEVICES} devices`)],
    };
  }
  const read = readDeviceRequests(
    [{ name: GPU_DEVICE_REQUEST_NAME, deviceClassName: driver, count, selectors: [{ driver }] }],
    gpuPath,
  );
  return read.errors.length > 0 ? { errors: read.errors } : { request: read.requests[0], errors: [] };
}
