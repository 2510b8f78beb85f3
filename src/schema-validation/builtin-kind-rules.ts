/**
 * A few Go-side API server rules of built-in kinds that schemas cannot express: apps/v1 selectors
 * must match the template labels; Job/CronJob pods restart OnFailure or Never and apps/v1 pods
 * Always; container names are unique DNS-1123 labels and container port names are IANA service
 * names; multi-port Services name every port uniquely; a workload's spec must be present; a
 * container's DRA claims are the pod's; DRA device selectors compile.
 */
import { checkDeviceSelector } from '../cel/device-selector';
import { Report } from '../core/field-path';
import { dnsLabelErrors, ianaServiceNameErrors } from '../core/kubernetes-names';

type Json = any;

const APPS_WORKLOADS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet']);
/** Built-in kinds whose spec has required fields, so that an absent spec is rejected. */
const SPEC_REQUIRED = new Set([
  'apps/v1 Deployment', 'apps/v1 StatefulSet', 'apps/v1 ReplicaSet', 'apps/v1 DaemonSet',
  'batch/v1 Job', 'batch/v1 CronJob', 'v1 Pod', 'v1 PersistentVolumeClaim',
  'resource.k8s.io/v1 ResourceClaim', 'resource.k8s.io/v1 ResourceClaimTemplate',
]);

/** Report the Go-side rules of built-in kinds (see the file header) that the object breaks. */
export function checkBuiltInRules(obj: Json, apiVersion: string, kind: string, report: Report): void {
  const spec = obj.spec;
  if (spec === undefined && SPEC_REQUIRED.has(`${apiVersion} ${kind}`)) {
    // The API server validates the zero-valued spec: its required fields are missing.
    report('spec', 'required field is missing');
  }
  if (!spec || typeof spec !== 'object') {
    return;
  }
  if (apiVersion === 'apps/v1' && APPS_WORKLOADS.has(kind)) {
    checkSelectorMatchesTemplate(spec.selector, spec.template?.metadata?.labels, report);
  }
  const podSpecs: Array<[Json, string]> = [];
  if (apiVersion === 'v1' && kind === 'Pod') {
    podSpecs.push([spec, 'spec']);
  } else if (apiVersion === 'v1' && kind === 'PodTemplate') {
    podSpecs.push([obj.template?.spec, 'template.spec']);
  } else if ((apiVersion === 'apps/v1' && APPS_WORKLOADS.has(kind)) || (apiVersion === 'batch/v1' && kind === 'Job')) {
    podSpecs.push([spec.template?.spec, 'spec.template.spec']);
  } else if (apiVersion === 'batch/v1' && kind === 'CronJob') {
    podSpecs.push([spec.jobTemplate?.spec?.template?.spec, 'spec.jobTemplate.spec.template.spec']);
  }
  for (const [podSpec, at] of podSpecs) {
    checkPodSpec(podSpec, at, report);
    checkRestartPolicy(podSpec, at, apiVersion, kind, report);
  }
  if (apiVersion === 'v1' && kind === 'Service') {
    checkServicePorts(spec.ports, report);
  }
  if (apiVersion === 'resource.k8s.io/v1') {
    checkDeviceSelectors(obj, kind, report);
  }
}

/**
 * DRA device selectors are compiled by the API server (Go-side, not in the schema): a selector
 * that does not parse or type-check against the device model is refused with its position.
 */
function checkDeviceSelectors(obj: Json, kind: string, report: Report): void {
  const lists: Array<[Json, string]> = [];
  if (kind === 'DeviceClass') lists.push([obj.spec?.selectors, 'spec.selectors']);
  const claimSpec = kind === 'ResourceClaimTemplate' ? obj.spec?.spec : kind === 'ResourceClaim' ? obj.spec : undefined;
  const at = kind === 'ResourceClaimTemplate' ? 'spec.spec' : 'spec';
  const requests: Json[] = Array.isArray(claimSpec?.devices?.requests) ? claimSpec.devices.requests : [];
  requests.forEach((r: Json, i: number) => {
    lists.push([r?.exactly?.selectors, `${at}.devices.requests[${i}].exactly.selectors`]);
    (Array.isArray(r?.firstAvailable) ? r.firstAvailable : []).forEach((sub: Json, j: number) =>
      lists.push([sub?.selectors, `${at}.devices.requests[${i}].firstAvailable[${j}].selectors`]));
  });
  for (const [selectors, path] of lists) {
    (Array.isArray(selectors) ? selectors : []).forEach((s: Json, k: number) => {
      const expression = s?.cel?.expression;
      if (typeof expression !== 'string') return; // The schema reports a missing expression.
      for (const e of checkDeviceSelector(expression)) report(`${path}[${k}].cel.expression`, `compilation failed: ${e.formatted}`);
    });
  }
}

function checkSelectorMatchesTemplate(selector: Json, templateLabels: Json, report: Report): void {
  if (!selector || typeof selector !== 'object') {
    return; // The schema reports a missing selector.
  }
  const matchLabels = selector.matchLabels ?? {};
  const expressions: Json[] = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  if (Object.keys(matchLabels).length === 0 && expressions.length === 0) {
    report('spec.selector', 'empty selector is invalid for this workload');
    return;
  }
  const labels: Record<string, string> = templateLabels && typeof templateLabels === 'object' ? templateLabels : {};
  const matches = Object.entries(matchLabels).every(([k, v]) => labels[k] === v) && expressions.every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e?.key);
    const values: string[] = Array.isArray(e?.values) ? e.values : [];
    switch (e?.operator) {
      case 'In': return has && values.includes(labels[e.key]);
      case 'NotIn': return !has || !values.includes(labels[e.key]);
      case 'Exists': return has;
      case 'DoesNotExist': return !has;
      default: return false;
    }
  });
  if (!matches) {
    report('spec.template.metadata.labels', '`selector` does not match template `labels`');
  }
}

function checkPodSpec(podSpec: Json, at: string, report: Report): void {
  if (!podSpec || typeof podSpec !== 'object') {
    return;
  }
  checkContainerClaims(podSpec, at, report);
  const names = new Set<string>();
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    const containers = podSpec[field];
    if (!Array.isArray(containers)) {
      continue;
    }
    containers.forEach((c: Json, i: number) => {
      const here = `${at}.${field}[${i}]`;
      if (typeof c?.name === 'string') {
        for (const m of dnsLabelErrors(c.name)) {
          report(`${here}.name`, `${JSON.stringify(c.name)} is not a DNS-1123 label: ${m}`);
        }
        if (names.has(c.name)) {
          report(`${here}.name`, `duplicate container name ${JSON.stringify(c.name)}`);
        }
        names.add(c.name);
      }
      const portNames = new Set<string>();
      (Array.isArray(c?.ports) ? c.ports : []).forEach((p: Json, j: number) => {
        if (typeof p?.name !== 'string') {
          return;
        }
        for (const m of ianaServiceNameErrors(p.name)) {
          report(`${here}.ports[${j}].name`, `${JSON.stringify(p.name)} is not an IANA service name: ${m}`);
        }
        if (portNames.has(p.name)) {
          report(`${here}.ports[${j}].name`, `duplicate port name ${JSON.stringify(p.name)}`);
        }
        portNames.add(p.name);
      });
    });
  }
}

/** Every claim a container consumes (`resources.claims[].name`) must be one of the pod's `resourceClaims`. */
function checkContainerClaims(podSpec: Json, at: string, report: Report): void {
  const declared = new Set((Array.isArray(podSpec.resourceClaims) ? podSpec.resourceClaims : []).map((c: Json) => c?.name));
  for (const field of ['initContainers', 'containers']) {
    (Array.isArray(podSpec[field]) ? podSpec[field] : []).forEach((c: Json, i: number) => {
      (Array.isArray(c?.resources?.claims) ? c.resources.claims : []).forEach((claim: Json, j: number) => {
        if (typeof claim?.name === 'string' && !declared.has(claim.name)) {
          report(`${at}.${field}[${i}].resources.claims[${j}].name`, `${JSON.stringify(claim.name)} must be the name of one of the pod's resourceClaims`);
        }
      });
    });
  }
}

/** Workload controllers only accept some pod restart policies (the pod default is Always). */
function checkRestartPolicy(podSpec: Json, at: string, apiVersion: string, kind: string, report: Report): void {
  if (!podSpec || typeof podSpec !== 'object') {
    return;
  }
  const policy = podSpec.restartPolicy ?? 'Always';
  const allowed = apiVersion === 'batch/v1' ? ['OnFailure', 'Never'] : apiVersion === 'apps/v1' ? ['Always'] : undefined;
  if (allowed && typeof policy === 'string' && !allowed.includes(policy)) {
    const got = podSpec.restartPolicy === undefined ? 'nothing (defaults to "Always")' : JSON.stringify(policy);
    report(`${at}.restartPolicy`, `a ${kind} pod template must set ${allowed.map((a) => JSON.stringify(a)).join(' or ')}, got ${got}`);
  }
}

function checkServicePorts(ports: Json, report: Report): void {
  if (!Array.isArray(ports)) {
    return;
  }
  const names = new Set<string>();
  ports.forEach((p: Json, i: number) => {
    const here = `spec.ports[${i}]`;
    if (ports.length > 1 && (typeof p?.name !== 'string' || p.name === '')) {
      report(`${here}.name`, 'required when a Service has more than one port');
    }
    if (typeof p?.name === 'string' && p.name !== '') {
      for (const m of dnsLabelErrors(p.name)) {
        report(`${here}.name`, `${JSON.stringify(p.name)} is not a DNS-1123 label: ${m}`);
      }
      if (names.has(p.name)) {
        report(`${here}.name`, `duplicate port name ${JSON.stringify(p.name)}`);
      }
      names.add(p.name);
    }
    if (typeof p?.targetPort === 'string') {
      for (const m of ianaServiceNameErrors(p.targetPort)) {
        report(`${here}.targetPort`, `${JSON.stringify(p.targetPort)} is not an IANA service name: ${m}`);
      }
    } else if (typeof p?.targetPort === 'number' && (p.targetPort < 1 || p.targetPort > 65535)) {
      report(`${here}.targetPort`, `must be between 1 and 65535, got ${p.targetPort}`);
    }
    if (typeof p?.port === 'number' && (p.port < 1 || p.port > 65535)) {
      report(`${here}.port`, `must be between 1 and 65535, got ${p.port}`);
    }
  });
}
