/**
 * The Kubernetes Pod Security Standards ("latest" version of the published controls) as a pure
 * check of a pod spec, so that every pod template this library emits can be held to "baseline" or
 * "restricted" at synth time, before a namespace's PodSecurity admission refuses the pods at run
 * time, where the failure shows only as a ReplicaSet event nobody reads.
 *
 * Only the pod spec is checked: the one control that also reads pod metadata (the deprecated
 * AppArmor annotations) is left to the caller, because pod templates are checked without their
 * metadata and this library never sets those annotations.
 */
import { isJsonObject } from '../core/json-object';

/** The two Pod Security Standards levels that restrict anything ("privileged" allows everything). */
export type PodSecurityLevel = 'baseline' | 'restricted';

/**
 * The controls of the Pod Security Standards, named after their headings in the Kubernetes docs.
 * `capabilities` and `seccomp` exist at both levels; the violation's `level` tells which rule.
 */
export type PodSecurityCheck =
  | 'hostProcess'
  | 'hostNamespaces'
  | 'privileged'
  | 'capabilities'
  | 'hostPathVolumes'
  | 'hostPorts'
  | 'hostProbes'
  | 'appArmor'
  | 'seLinux'
  | 'procMount'
  | 'seccomp'
  | 'sysctls'
  | 'volumeTypes'
  | 'privilegeEscalation'
  | 'runAsNonRoot'
  | 'runAsUser';

/** One field of a pod spec that a Pod Security Standards level does not allow. */
export interface PodSecurityViolation {
  /** Path relative to the pod spec, e.g. `containers[0].securityContext.privileged`. */
  readonly path: string;
  /** The offending value (undefined where a required field is missing). */
  readonly value?: unknown;
  /** What is wrong and what the level allows. */
  readonly message: string;
  /** The control that is violated. */
  readonly check: PodSecurityCheck;
  /** The lowest level whose rule is broken: a baseline violation also breaks restricted. */
  readonly level: PodSecurityLevel;
}

/** Capabilities baseline lets a container add: the container runtimes' default set. */
export const BASELINE_ALLOWED_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE',
  'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
];

/** Sysctls baseline allows: the namespaced ("safe") set the kubelet allows by default. */
export const BASELINE_ALLOWED_SYSCTLS: readonly string[] = [
  'kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
];

/** Volume sources restricted allows: none of them reaches the node beyond what the pod owns. */
export const RESTRICTED_ALLOWED_VOLUME_TYPES: readonly string[] = [
  'configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret',
];

const ALLOWED_SELINUX_TYPES = ['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'];
const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;

/**
 * Every field of `podSpec` (a core/v1 PodSpec as JSON) that the given Pod Security Standards
 * level does not allow; empty when the pod passes. "restricted" includes every baseline rule.
 * Container-level `securityContext` fields take precedence over the pod-level ones where
 * Kubernetes gives them precedence (runAsNonRoot, runAsUser, seccompProfile, appArmorProfile,
 * seLinuxOptions). Windows pods (`os.name: windows`) are exempt from the Linux-only restricted
 * rules (seccomp, privilege escalation, capabilities), as the standard says.
 */
export function podSecurityViolations(podSpec: any, level: PodSecurityLevel): PodSecurityViolation[] {
  const spec = isJsonObject(podSpec) ? podSpec : {};
  const out: PodSecurityViolation[] = [];
  checkBaseline(spec, out);
  if (level === 'restricted') checkRestricted(spec, out);
  return out;
}

/** True when the pod spec passes the level. */
export function passesPodSecurity(podSpec: any, level: PodSecurityLevel): boolean {
  return podSecurityViolations(podSpec, level).length === 0;
}

/** One line per violation, `path: message`, for error messages and test failures. */
export function describePodSecurityViolations(violations: readonly PodSecurityViolation[], prefix = ''): string {
  return violations.map((v) => `${prefix}${prefix && !v.path.startsWith('[') ? '.' : ''}${v.path}: ${v.message}`).join('\n');
}

interface ContainerEntry {
  readonly path: string;
  readonly container: Record<string, unknown>;
  readonly securityContext: Record<string, unknown>;
}

function containersOf(spec: Record<string, unknown>): ContainerEntry[] {
  const out: ContainerEntry[] = [];
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container, i) => {
      if (!isJsonObject(container)) return;
      const sc = isJsonObject(container.securityContext) ? container.securityContext : {};
      out.push({ path: `${list}[${i}]`, container, securityContext: sc });
    });
  }
  return out;
}

function podSecurityContext(spec: Record<string, unknown>): Record<string, unknown> {
  return isJsonObject(spec.securityContext) ? spec.securityContext : {};
}

function isWindows(spec: Record<string, unknown>): boolean {
  return isJsonObject(spec.os) && spec.os.name === 'windows';
}

function child(value: unknown, key: string): unknown {
  return isJsonObject(value) ? value[key] : undefined;
}

function checkBaseline(spec: Record<string, unknown>, out: PodSecurityViolation[]): void {
  const add = (check: PodSecurityCheck, path: string, value: unknown, message: string) =>
    out.push({ check, path, value, message, level: 'baseline' });
  const podSc = podSecurityContext(spec);
  const containers = containersOf(spec);

  // HostProcess: Windows host-process containers have full access to the node.
  if (child(podSc.windowsOptions, 'hostProcess') === true) {
    add('hostProcess', 'securityContext.windowsOptions.hostProcess', true, 'Windows HostProcess pods are not allowed (allowed: unset or false)');
  }
  for (const c of containers) {
    if (child(c.securityContext.windowsOptions, 'hostProcess') === true) {
      add('hostProcess', `${c.path}.securityContext.windowsOptions.hostProcess`, true, 'Windows HostProcess containers are not allowed (allowed: unset or false)');
    }
  }

  // Host namespaces.
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC']) {
    if (spec[field] === true) add('hostNamespaces', field, true, 'sharing the host\'s namespaces is not allowed (allowed: unset or false)');
  }

  for (const c of containers) {
    const sc = c.securityContext;
    const scPath = `${c.path}.securityContext`;
    // Privileged containers.
    if (sc.privileged === true) add('privileged', `${scPath}.privileged`, true, 'privileged containers are not allowed (allowed: unset or false)');
    // Capabilities beyond the runtime default set.
    const added = child(sc.capabilities, 'add');
    if (Array.isArray(added)) {
      added.forEach((cap, i) => {
        if (typeof cap !== 'string' || !BASELINE_ALLOWED_CAPABILITIES.includes(cap)) {
          add('capabilities', `${scPath}.capabilities.add[${i}]`, cap, `adding this capability is not allowed (allowed: ${BASELINE_ALLOWED_CAPABILITIES.join(', ')})`);
        }
      });
    }
    // Host ports.
    const ports = c.container.ports;
    if (Array.isArray(ports)) {
      ports.forEach((port, i) => {
        const hostPort = child(port, 'hostPort');
        if (hostPort !== undefined && hostPort !== 0) add('hostPorts', `${c.path}.ports[${i}].hostPort`, hostPort, 'host ports are not allowed (allowed: unset or 0)');
      });
    }
    // Probes and lifecycle hooks may not be pointed at another host (the kubelet would call it).
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      for (const handler of ['httpGet', 'tcpSocket']) {
        const host = child(child(c.container[probe], handler), 'host');
        if (host !== undefined && host !== '') add('hostProbes', `${c.path}.${probe}.${handler}.host`, host, 'probes may not name a host (allowed: unset or "")');
      }
    }
    for (const hook of ['postStart', 'preStop']) {
      for (const handler of ['httpGet', 'tcpSocket']) {
        const host = child(child(child(c.container.lifecycle, hook), handler), 'host');
        if (host !== undefined && host !== '') add('hostProbes', `${c.path}.lifecycle.${hook}.${handler}.host`, host, 'lifecycle hooks may not name a host (allowed: unset or "")');
      }
    }
    // /proc mount type.
    if (sc.procMount !== undefined && sc.procMount !== 'Default') {
      add('procMount', `${scPath}.procMount`, sc.procMount, 'an unmasked /proc is not allowed (allowed: unset or "Default")');
    }
  }

  // HostPath volumes.
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  volumes.forEach((volume, i) => {
    if (isJsonObject(volume) && volume.hostPath !== undefined) add('hostPathVolumes', `volumes[${i}].hostPath`, volume.hostPath, 'hostPath volumes are not allowed');
  });

  // AppArmor, SELinux and seccomp may each be set at pod and container level: every set value counts.
  const contexts: Array<[string, Record<string, unknown>]> = [['securityContext', podSc], ...containers.map((c): [string, Record<string, unknown>] => [`${c.path}.securityContext`, c.securityContext])];
  for (const [path, sc] of contexts) {
    const appArmorType = child(sc.appArmorProfile, 'type');
    if (appArmorType !== undefined && appArmorType !== 'RuntimeDefault' && appArmorType !== 'Localhost') {
      add('appArmor', `${path}.appArmorProfile.type`, appArmorType, 'disabling AppArmor is not allowed (allowed: unset, "RuntimeDefault" or "Localhost")');
    }
    if (isJsonObject(sc.seLinuxOptions)) {
      const se = sc.seLinuxOptions;
      if (se.type !== undefined && !ALLOWED_SELINUX_TYPES.includes(se.type as string)) {
        add('seLinux', `${path}.seLinuxOptions.type`, se.type, `this SELinux type is not allowed (allowed: unset, ${ALLOWED_SELINUX_TYPES.filter((t) => t).map((t) => `"${t}"`).join(', ')})`);
      }
      for (const field of ['user', 'role']) {
        if (se[field] !== undefined && se[field] !== '') add('seLinux', `${path}.seLinuxOptions.${field}`, se[field], `setting the SELinux ${field} is not allowed (allowed: unset or "")`);
      }
    }
    const seccompType = child(sc.seccompProfile, 'type');
    if (seccompType === 'Unconfined') add('seccomp', `${path}.seccompProfile.type`, seccompType, 'an unconfined seccomp profile is not allowed (allowed: unset, "RuntimeDefault" or "Localhost")');
  }

  // Sysctls outside the safe set.
  const sysctls = podSc.sysctls;
  if (Array.isArray(sysctls)) {
    sysctls.forEach((sysctl, i) => {
      const name = child(sysctl, 'name');
      if (typeof name !== 'string' || !BASELINE_ALLOWED_SYSCTLS.includes(name)) {
        add('sysctls', `securityContext.sysctls[${i}].name`, name, `this sysctl is not allowed (allowed: ${BASELINE_ALLOWED_SYSCTLS.join(', ')})`);
      }
    });
  }
}

function checkRestricted(spec: Record<string, unknown>, out: PodSecurityViolation[]): void {
  const add = (check: PodSecurityCheck, path: string, value: unknown, message: string) =>
    out.push({ check, path, value, message, level: 'restricted' });
  const podSc = podSecurityContext(spec);
  const containers = containersOf(spec);
  const linux = !isWindows(spec);

  // Volume types: hostPath is already a baseline violation, so it is not reported twice.
  const volumes = Array.isArray(spec.volumes) ? spec.volumes : [];
  volumes.forEach((volume, i) => {
    if (!isJsonObject(volume)) return;
    for (const key of Object.keys(volume)) {
      if (key === 'name' || key === 'hostPath' || RESTRICTED_ALLOWED_VOLUME_TYPES.includes(key)) continue;
      add('volumeTypes', `volumes[${i}].${key}`, volume[key], `this volume type is not allowed (allowed: ${RESTRICTED_ALLOWED_VOLUME_TYPES.join(', ')})`);
    }
  });

  // Running as non-root: the container's setting wins; unset falls back to the pod's.
  const podNonRoot = podSc.runAsNonRoot;
  if (podNonRoot === false) add('runAsNonRoot', 'securityContext.runAsNonRoot', false, 'containers must run as non-root (allowed: true)');
  for (const c of containers) {
    const own = c.securityContext.runAsNonRoot;
    if (own === false) {
      add('runAsNonRoot', `${c.path}.securityContext.runAsNonRoot`, false, 'containers must run as non-root (allowed: true)');
    } else if (own === undefined && podNonRoot !== true) {
      add('runAsNonRoot', `${c.path}.securityContext.runAsNonRoot`, undefined, 'must be true, here or in the pod securityContext');
    }
  }

  // Running as a non-root user: UID 0 is refused at either level.
  if (podSc.runAsUser === 0) add('runAsUser', 'securityContext.runAsUser', 0, 'running as UID 0 is not allowed (allowed: unset or non-zero)');
  for (const c of containers) {
    if (c.securityContext.runAsUser === 0) add('runAsUser', `${c.path}.securityContext.runAsUser`, 0, 'running as UID 0 is not allowed (allowed: unset or non-zero)');
  }

  if (!linux) return;

  // Seccomp: each container needs RuntimeDefault or Localhost, its own or inherited from the pod.
  const podSeccomp = child(podSc.seccompProfile, 'type');
  const podSeccompOk = podSeccomp === 'RuntimeDefault' || podSeccomp === 'Localhost';
  for (const c of containers) {
    const own = child(c.securityContext.seccompProfile, 'type');
    if (own === undefined && !podSeccompOk) {
      add('seccomp', `${c.path}.securityContext.seccompProfile.type`, undefined, 'must be "RuntimeDefault" or "Localhost", here or in the pod securityContext');
    }
  }

  for (const c of containers) {
    const scPath = `${c.path}.securityContext`;
    // Privilege escalation must be switched off explicitly (the runtime default is on).
    if (c.securityContext.allowPrivilegeEscalation !== false) {
      add('privilegeEscalation', `${scPath}.allowPrivilegeEscalation`, c.securityContext.allowPrivilegeEscalation, 'must be false');
    }
    // Capabilities: drop ALL, add at most NET_BIND_SERVICE.
    const caps = c.securityContext.capabilities;
    const drop = child(caps, 'drop');
    if (!Array.isArray(drop) || !drop.includes('ALL')) {
      add('capabilities', `${scPath}.capabilities.drop`, drop, 'must include "ALL"');
    }
    const added = child(caps, 'add');
    if (Array.isArray(added)) {
      added.forEach((cap, i) => {
        // Capabilities outside the baseline set were reported already.
        if (cap !== 'NET_BIND_SERVICE' && typeof cap === 'string' && BASELINE_ALLOWED_CAPABILITIES.includes(cap)) {
          add('capabilities', `${scPath}.capabilities.add[${i}]`, cap, 'adding this capability is not allowed (allowed: NET_BIND_SERVICE)');
        }
      });
    }
  }
}
