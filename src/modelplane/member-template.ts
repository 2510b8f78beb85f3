/**
 * The pod template of an engine member (`members[].template`): the curated subset of a
 * PodTemplateSpec modelplane's XRD keeps. It has exactly one container and that container is
 * named `engine`; ports, probes, volumes and resources are not in the schema because the
 * composition owns them (port 8000, its readiness probe, `/dev/shm`, the cache mount, the device
 * claim). Both the typed constructs and the provider render members through here (by way of
 * ./engine-spec).
 */
import type { EnvVarJson } from './env-var';
import { ENGINE_CONTAINER_NAME } from './limits';

/** The engine container in the XRD's JSON shape. */
export interface EngineContainerJson {
  readonly name: string;
  readonly image: string;
  readonly command?: string[];
  readonly args?: string[];
  readonly env?: EnvVarJson[];
}

/** A member's `template`. */
export interface MemberTemplateJson {
  readonly metadata?: { readonly labels?: Record<string, string>; readonly annotations?: Record<string, string> };
  readonly spec: {
    readonly containers: EngineContainerJson[];
    readonly imagePullSecrets?: Array<{ readonly name: string }>;
  };
}

/** What goes into the engine container. */
export interface EngineContainerInput {
  readonly image: string;
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env?: readonly EnvVarJson[];
}

/** A member template; empty lists and maps are left out. */
export function memberTemplate(
  container: EngineContainerInput,
  labels: Readonly<Record<string, string>> = {},
  annotations: Readonly<Record<string, string>> = {},
  imagePullSecrets: readonly string[] = [],
): MemberTemplateJson {
  const engine: EngineContainerJson = {
    name: ENGINE_CONTAINER_NAME,
    image: container.image,
    ...(container.command && container.command.length > 0 && { command: [...container.command] }),
    ...(container.args && container.args.length > 0 && { args: [...container.args] }),
    ...(container.env && container.env.length > 0 && { env: [...container.env] }),
  };
  const hasLabels = Object.keys(labels).length > 0;
  const hasAnnotations = Object.keys(annotations).length > 0;
  return {
    ...((hasLabels || hasAnnotations) && {
      metadata: { ...(hasLabels && { labels: { ...labels } }), ...(hasAnnotations && { annotations: { ...annotations } }) },
    }),
    spec: {
      containers: [engine],
      ...(imagePullSecrets.length > 0 && { imagePullSecrets: imagePullSecrets.map((name) => ({ name })) }),
    },
  };
}
