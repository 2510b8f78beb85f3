/**
 * One engine of a modelplane ModelDeployment in the XRD's shape (`spec.template.spec.engines[]`),
 * from parts already checked: the one place that decides how an engine's members, device
 * requests and pod templates are written.
 *
 * Why a function of parts and not the `ModelplaneDeployment` construct: the typed construct reads
 * its props (typed `DeviceRequest`s, `k8s.EnvVar`s) and the AI Runway provider reads a
 * ModelDeployment; both arrive at the same checked device requests and container. Passing the
 * provider's parts through the construct's props would turn checked requests back into typed
 * ones only to check them again, so both call this instead, with what they hold.
 */
import { EngineContainerInput, memberTemplate } from './member-template';
import { nodeSelectorDevices } from './node-selector';
import { ModelplaneEnginePhase } from './serving';
import type { CheckedDeviceRequest } from '../api/devices/device-request';
import * as modelplane from '../imports/modelplane.ai';

/** What one member's pods get. */
export interface MemberParts {
  readonly container: EngineContainerInput;
  /** Per-pod device requests; none or an empty list leaves `nodeSelector` out. */
  readonly devices?: readonly CheckedDeviceRequest[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** An engine: a Standalone member, or a Leader (`leader`) with `workers.nodes` Worker pods. */
export interface EngineParts {
  readonly name: string;
  /** @default - left out (modelplane runs one copy) */
  readonly copies?: number;
  readonly phase?: ModelplaneEnginePhase;
  readonly leader: MemberParts;
  readonly workers?: { readonly nodes: number; readonly member: MemberParts };
  readonly imagePullSecrets: readonly string[];
}

type Role = modelplane.ModelDeploymentSpecTemplateSpecEnginesMembersRole;
const Role = modelplane.ModelDeploymentSpecTemplateSpecEnginesMembersRole;

function member(role: Role, parts: MemberParts, imagePullSecrets: readonly string[]): modelplane.ModelDeploymentSpecTemplateSpecEnginesMembers {
  const devices = parts.devices ?? [];
  return {
    role,
    ...(devices.length > 0 && { nodeSelector: { devices: nodeSelectorDevices(devices) } }),
    template: memberTemplate(parts.container, parts.labels, parts.annotations, imagePullSecrets),
  };
}

/** The engine in the XRD's shape. */
export function engineSpec(parts: EngineParts): modelplane.ModelDeploymentSpecTemplateSpecEngines {
  const { workers, imagePullSecrets } = parts;
  const members = workers === undefined
    ? [member(Role.STANDALONE, parts.leader, imagePullSecrets)]
    : [
      member(Role.LEADER, parts.leader, imagePullSecrets),
      { ...member(Role.WORKER, workers.member, imagePullSecrets), worker: { nodes: workers.nodes } },
    ];
  return {
    name: parts.name,
    ...(parts.copies !== undefined && { copies: parts.copies }),
    ...(parts.phase !== undefined && { phase: parts.phase as string as modelplane.ModelDeploymentSpecTemplateSpecEnginesPhase }),
    members,
  };
}
