import type { CliRouting } from './arguments';
import { buildApp, subject } from './build-app';
import { describeClusterProfile, profileNotes } from './cluster-profile';
import { documentLabel, formatProblem, InputDocument, InputProblem, noModelDeploymentProblem, readInputDocuments } from './input-documents';
import type { CliIo } from './io';
import { parseModelDeploymentManifest } from '../admission/model-deployment-manifest';
import { toResolvedDeployment } from '../api/resolved-model-deployment';
import type { ProviderRegistry } from '../constructs/provider-registry';
import { formatFieldError } from '../core/field-error';
import type { ModelDeploymentObject } from '../core/model-deployment-object';
import { ComponentFit, describeNeed, fitDeployment } from '../dra/capacity-fit';
import { planModelRouting } from '../gateway/model-routing';
import { resolveModelDeployment, Resolution } from '../pipeline/resolve';

/**
 * `explain`: for each ModelDeployment, the engine and provider chosen and why — every provider
 * considered, why it was excluded or its priority, how each selection rule evaluated — and how the
 * model is routed. The app is built exactly as `synth` builds it, so every error `synth` would
 * report is reported here too; exits 1 when there is any.
 */
export function runExplain(files: readonly string[], routing: CliRouting, io: CliIo): number {
  const { documents, problems } = readInputDocuments(files, io.stdin?.bind(io));
  const built = buildApp(documents, routing);
  const registry = built.registry;
  const deploymentProblems = new Set(built.problems.filter((p) => built.deployments.some((d) => isAbout(p, d.document))));
  const empty = noModelDeploymentProblem(files, documents, problems);
  const otherProblems = [...problems, ...built.problems.filter((p) => !deploymentProblems.has(p)), ...(empty ? [empty] : [])];
  for (const p of otherProblems) io.stderr(`error: ${formatProblem(p, built.documents)}`);
  for (const note of built.profile ? profileNotes(built.profile) : []) io.stderr(note);

  // What the answers below assume the cluster has: they hold for that cluster only.
  if (built.deployments.length > 0) io.stdout(describeClusterProfile(registry, routing.profile));
  for (const { document: doc } of built.deployments) {
    io.stdout(`${subject(doc)} (${documentLabel(doc.file, doc.index)})\n`);
    const { md } = parseModelDeploymentManifest(doc.content);
    const resolution: Resolution | undefined =
      md &&
      resolveModelDeployment(md, registry._catalog(), { gatewayKnown: registry.gateway !== undefined });
    if (resolution) io.stdout(explainResolution(resolution, registry));
    if (md) io.stdout(explainTargets(md, registry));
    const routingLine = resolution?.resolved && resolution.provider && explainRouting(resolution, registry);
    if (routingLine) io.stdout(routingLine);
    const pools = registry._nodePools();
    if (resolution?.resolved && resolution.provider && pools.length > 0) {
      io.stdout(resolution.provider.schedulesDevicesItself(toResolvedDeployment(resolution.resolved))
        ? `  capacity: not checked: ${resolution.provider.name} places the pods on nodes of its own\n`
        : explainCapacity(fitDeployment(resolution.resolved, pools)));
    }
    for (const w of resolution?.warnings ?? []) io.stdout(`  warning: ${w}\n`);
    for (const p of built.problems.filter((q) => isAbout(q, doc))) {
      io.stdout(`  error: ${p.message}\n`);
      io.stderr(`error: ${formatProblem(p, built.documents)}`);
    }
    io.stdout('\n');
  }
  return otherProblems.length + deploymentProblems.size > 0 ? 1 : 0;
}

function isAbout(problem: InputProblem, doc: InputDocument): boolean {
  return problem.file === doc.file && problem.index === doc.index;
}

/** One line on the gateway integration the synth would produce, or why there is none. */
function explainRouting(r: Resolution, registry: ProviderRegistry): string {
  const md = r.resolved!;
  const { plan, errors } = planModelRouting({
    md,
    provider: r.provider!,
    providerConfig: registry._catalog().entries.find((e) => e.name === md.provider),
    deployment: {},
    defaults: registry._routingDefaults(),
  });
  if (errors.length > 0) return errors.map((e) => `  routing: error: ${formatFieldError(e)}\n`).join('');
  if (!plan) return `  routing: off (${r.defaulted?.spec.gateway?.enabled === false ? 'spec.gateway.enabled is false' : 'no Gateway known; pass --gateway NAMESPACE/NAME'})\n`;
  const pool = `${plan.pool.namespace}/${plan.pool.name}`;
  const how = plan.controllerManaged ? `InferencePool ${pool} + endpoint picker ${plan.controllerManaged.endpointPickerImage}` : `provider-managed InferencePool ${pool}`;
  const route = plan.httpRoute ? `HTTPRoute ${plan.namespace}/${md.name} on Gateway ${plan.gateway.namespace}/${plan.gateway.name}` : `user HTTPRoute ${md.spec.gateway?.httpRouteRef}`;
  return `  routing: ${route}, model name "${plan.modelName}", ${how}\n`;
}

/**
 * Every registered target and whether it could take the deployment if the deployment named it:
 * the deployment is resolved again with `spec.provider.name` set to each provider (the user's own
 * choice included), so the answer is exactly the synth's, and the first error says why not.
 */
function explainTargets(md: ModelDeploymentObject, registry: ProviderRegistry): string {
  const catalog = registry._catalog();
  const lines = ['  targets (if spec.provider.name named each):'];
  for (const name of catalog.entries.map((e) => e.name).sort()) {
    const absent = catalog.entries.find((e) => e.name === name && e.notInProfile);
    if (absent) {
      lines.push(`    ${name}: not installed (not in the cluster profile ${absent.profile?.source})`);
      continue;
    }
    const named = { ...md, spec: { ...md.spec, provider: { ...md.spec.provider, name } } };
    const r = resolveModelDeployment(named, catalog, { gatewayKnown: registry.gateway !== undefined });
    const first = r.errors[0];
    lines.push(first
      ? `    ${name}: cannot: ${formatFieldError(first)}${r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : ''}`
      : `    ${name}: can (engine ${r.resolved?.engine}, ${r.resolved?.mode})${notReadyNote(catalog.entries.find((e) => e.name === name))}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Which declared node pools hold each component that needs GPUs or devices, and why the others do not. */
function explainCapacity(components: readonly ComponentFit[]): string {
  if (components.length === 0) return '  capacity: no GPUs or devices requested; not checked\n';
  const lines: string[] = [];
  for (const c of components) {
    const fitting = c.pools.filter((p) => p.fits);
    const what = c.need.component === 'resources' ? 'serving' : c.need.component;
    lines.push(`  capacity: ${c.need.pods} ${what} pod(s), ${describeNeed(c.need)}: ` +
      (fitting.length > 0 ? `fits ${fitting.map((p) => `${p.pool} (${p.podsPerNode} per node)`).join(', ')}` : 'InsufficientCapacity'));
    for (const p of c.pools.filter((q) => !q.fits)) lines.push(`    ${p.pool}: ${p.reasons.join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

function explainResolution(r: Resolution, registry: ProviderRegistry): string {
  const profile = registry._profile();
  const lines: string[] = [];
  const e = r.engineSelection;
  if (e) {
    lines.push(e.engine ? `  engine: ${e.engine} (${e.reason})` : `  engine: not selected: ${e.error}`);
    if (!e.explicit) {
      lines.push(`    hasGPU=${e.hasGpu}, servingMode=${e.mode}; preference vllm > sglang > trtllm > llamacpp`);
      for (const t of e.trace) {
        if (t.excluded) lines.push(`    ${t.provider}: excluded (${engineExclusion(t.excluded, profile?.source)})`);
        for (const c of t.engines) lines.push(`    ${t.provider}/${c.engine}: ${c.detail}`);
      }
    }
  }
  const p = r.providerSelection;
  if (p) {
    lines.push(p.provider ? `  provider: ${p.provider} (${p.reason})` : `  provider: not selected: ${p.error}`);
    const named = p.explicit ? registry._catalog().entries.find((entry) => entry.name === p.provider) : undefined;
    if (named && !named.ready) {
      // AI Runway does not check readiness of a named provider: the choice stands, nothing serves yet.
      lines.push(`    note: ${p.provider} is not ready${profile ? ` in the cluster profile ${profile.source}` : ''}; AI Runway keeps the choice, but nothing serves the model until it is ready`);
    }
    if (!p.explicit) {
      if (p.candidates.length > 0) lines.push(`    candidates: ${p.candidates.map((c) => `${c.name}=${c.priority}`).join(', ')} (highest priority wins; ties go to the smallest name)`);
      for (const t of p.trace) {
        lines.push(`    ${t.provider}: ${t.detail}`);
        for (const rule of t.rules) {
          lines.push(`      [${rule.priority}] ${rule.condition} -> ${rule.outcome}${rule.message ? `: ${rule.message}` : ''}`);
        }
      }
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** An engine-selection exclusion in words; the cluster profile's ones name it. */
function engineExclusion(excluded: string, profile: string | undefined): string {
  if (excluded === 'not-in-profile') return `not in the cluster profile ${profile}`;
  if (excluded === 'not-ready' && profile) return `not ready in the cluster profile ${profile}`;
  return excluded;
}

/** `, but not ready` for a target that could take the deployment yet is not ready. */
function notReadyNote(entry: { readonly ready: boolean; readonly profile?: { readonly source: string } } | undefined): string {
  if (!entry || entry.ready) return '';
  return `, but not ready${entry.profile ? ` in the cluster profile ${entry.profile.source}` : ''}`;
}
