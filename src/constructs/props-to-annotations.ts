import type { ModelDeploymentProps } from './model-deployment-props';
import { autoscalingAnnotationValue } from '../api/autoscaling/autoscaling';
import { AUTOSCALING_ANNOTATION } from '../api/autoscaling/autoscaling-annotation';
import type { DeviceRequestSpec } from '../api/devices/device-request';
import { deviceRequestSpec } from '../api/devices/devices';
import { loraAnnotationValue } from '../api/lora/lora';
import { LORA_ANNOTATION } from '../api/lora/lora-annotation';
import { multiNodeAnnotationSpec } from '../api/multi-node/multi-node';
import { MULTI_NODE_ANNOTATION } from '../api/multi-node/multi-node-annotation';
import type { GpuOptions } from '../api/resources';
import { FieldError, forbidden, invalid } from '../core/field-error';
import { TOLERATE_GPU_TAINT_ANNOTATION, TOLERATE_GPU_TAINT_PATH } from '../core/gpu-taint-toleration';
import { yamlPackage } from '../core/yaml-package';
import { annotationPath } from '../provider-kit/deployment-extension';
import { DEVICES_ANNOTATION, DEVICES_ANNOTATION_PATH } from '../provider-kit/device-annotation';

/*
 * Props that AI Runway's ModelDeployment has no spec field for become annotations of ours on the
 * deployment, so that the construct and a YAML user write the same object and the record carries
 * the setting to the controller.
 */

/** The annotations of a deployment built from props, or the errors that prevent writing them. */
export interface AnnotationsFromProps {
  /** `metadata.annotations` with the props' own annotations added; undefined when there are none. */
  readonly annotations?: { [key: string]: string };
  readonly errors: FieldError[];
}

/**
 * `metadata.annotations`, plus `inference.cdk8s.io/devices` from `GpuOptions.devices`,
 * `inference.cdk8s.io/tolerate-gpu-taint` from `GpuOptions.tolerateTaint` and one annotation per
 * extension prop (`scaling.autoscaling`, ...).
 * The annotation is one per deployment, so the `GpuOptions` that set it (resources, prefill,
 * decode) must agree, and must agree with an annotation the user wrote themselves.
 */
export function propsToAnnotations(props: ModelDeploymentProps): AnnotationsFromProps {
  const devices = devicesAnnotation(props);
  const extensions = [
    extensionAnnotation(props, AUTOSCALING_ANNOTATION, 'scaling.autoscaling',
      props.scaling?.autoscaling && autoscalingAnnotationValue(props.scaling.autoscaling)),
    extensionAnnotation(props, LORA_ANNOTATION, 'lora', props.lora && loraAnnotationValue(props.lora)),
    extensionAnnotation(props, MULTI_NODE_ANNOTATION, 'multiNode', props.multiNode && multiNodeAnnotationSpec(props.multiNode)),
  ];
  const errors = [...devices.errors, ...extensions.flatMap((e) => e.errors)];
  if (errors.length > 0) return { errors };
  const added = Object.assign({}, devices.annotation, ...extensions.map((e) => e.annotation));
  const written = Object.keys(added).length > 0
    ? { ...props.metadata?.annotations, ...added }
    : props.metadata?.annotations;
  const annotations = written && { ...written };
  const settings: Array<[string, boolean]> = [];
  const note = (where: string, gpu: GpuOptions | undefined) => {
    if (gpu?.tolerateTaint !== undefined) settings.push([where, gpu.tolerateTaint]);
  };
  note('resources.gpu', props.resources?.gpu);
  note('scaling.prefill.gpu', props.scaling?.prefill?.gpu);
  note('scaling.decode.gpu', props.scaling?.decode?.gpu);
  if (settings.length === 0) return { annotations, errors: [] };

  const [firstWhere, first] = settings[0];
  const disagreeing = settings.find(([, v]) => v !== first);
  if (disagreeing) {
    const [where, v] = disagreeing;
    return {
      errors: [invalid(`${where}.tolerateTaint`, v, `disagrees with ${firstWhere}.tolerateTaint (${first}): the GPU taint toleration ` +
        `(annotation ${TOLERATE_GPU_TAINT_ANNOTATION}) applies to every GPU pod of the deployment, so give it one value`)],
    };
  }
  const value = String(first);
  const own = written?.[TOLERATE_GPU_TAINT_ANNOTATION];
  if (own !== undefined && own !== value) {
    return {
      errors: [invalid(TOLERATE_GPU_TAINT_PATH, own, `disagrees with ${firstWhere}.tolerateTaint (${first}); set only one of them`)],
    };
  }
  return { annotations: { ...annotations, [TOLERATE_GPU_TAINT_ANNOTATION]: value }, errors: [] };
}

/**
 * One extension annotation (src/pipeline/deployment-extensions.ts) from the typed prop at `propPath`,
 * as YAML; none when the prop is unset. Writing the annotation by hand as well is an error: one of
 * the two would be lost.
 */
function extensionAnnotation(
  props: ModelDeploymentProps,
  annotation: string,
  propPath: string,
  value: Record<string, unknown> | undefined,
): { annotation?: { [key: string]: string }; errors: FieldError[] } {
  if (value === undefined) return { errors: [] };
  if (props.metadata?.annotations?.[annotation] !== undefined) {
    return { errors: [forbidden(annotationPath(annotation), `is set in metadata.annotations and by ${propPath}; set only one of them`)] };
  }
  return { annotation: { [annotation]: yamlPackage().stringify(value) }, errors: [] };
}

/**
 * `inference.cdk8s.io/devices` from the `devices` of `resources.gpu`, `scaling.prefill.gpu` and
 * `scaling.decode.gpu`, as YAML under `resources`, `prefill` and `decode`; none when no `GpuOptions`
 * has devices. Writing the annotation by hand as well is an error: one of the two would be lost.
 */
function devicesAnnotation(props: ModelDeploymentProps): { annotation?: { [key: string]: string }; errors: FieldError[] } {
  const byComponent: Record<string, DeviceRequestSpec[]> = {};
  const note = (key: string, gpu: GpuOptions | undefined) => {
    if (gpu?.devices !== undefined) byComponent[key] = gpu.devices.map(deviceRequestSpec);
  };
  note('resources', props.resources?.gpu);
  note('prefill', props.scaling?.prefill?.gpu);
  note('decode', props.scaling?.decode?.gpu);
  if (Object.keys(byComponent).length === 0) return { errors: [] };
  if (props.metadata?.annotations?.[DEVICES_ANNOTATION] !== undefined) {
    return { errors: [forbidden(DEVICES_ANNOTATION_PATH, 'is set in metadata.annotations and by GpuOptions.devices; set only one of them')] };
  }
  return { annotation: { [DEVICES_ANNOTATION]: yamlPackage().stringify(byComponent) }, errors: [] };
}
