/**
 * Helpers of the Kthena construct tests: charts, the validation messages a synth would report,
 * and pod templates with the resources an engine needs.
 */
import { ApiObject, Chart, Size, Testing } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-34';
import { KthenaContainerProps, KthenaPodTemplate } from '../../src/kthena';
import { expectValidManifests, formatViolation, validateManifests } from '../support/schema-validator';

export const VLLM_IMAGE = 'vllm/vllm-openai:v0.11.0';

/** A vLLM container with one GPU and explicit resources (so no cdk8s-plus default applies). */
export function vllmContainer(overrides: Partial<KthenaContainerProps> = {}): KthenaContainerProps {
  return {
    name: 'vllm',
    image: VLLM_IMAGE,
    args: ['--model', 'Qwen/Qwen3-8B'],
    portNumber: 8000,
    resources: { cpu: { request: Cpu.units(4) }, memory: { request: Size.gibibytes(32), limit: Size.gibibytes(64) } },
    extendedResources: { 'nvidia.com/gpu': 1 },
    securityContext: { ensureNonRoot: false, readOnlyRootFilesystem: false },
    ...overrides,
  };
}

/** A pod template with one vLLM container. */
export function vllmTemplate(overrides: Partial<KthenaContainerProps> = {}): KthenaPodTemplate {
  return new KthenaPodTemplate({ containers: [vllmContainer(overrides)] });
}

export function chart(): Chart {
  return Testing.chart();
}

/** Validation messages of the chart (what `App.synth()` would report), without construct paths. */
export function errorsOf(c: Chart): string[] {
  return c.node.findAll().flatMap((n) => n.node.validate());
}

/** The chart's manifests, after asserting that it validates and that Kthena's schemas accept them. */
export function validManifests(c: Chart): any[] {
  expect(errorsOf(c)).toEqual([]);
  const manifests = Testing.synth(c);
  expectValidManifests(manifests);
  return manifests;
}

/** The one manifest of `kind` in the chart, validated. */
export function manifestOf(c: Chart, kind: string): any {
  const found = validManifests(c).filter((m) => m.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

/**
 * What Kthena's own schema and CEL rules say about the chart's raw output (synthesized without
 * our validations): for cross-checking that a rule we report is one the API server enforces.
 */
export function upstreamViolations(c: Chart): string[] {
  const raw = c.node.findAll().filter((n): n is ApiObject => n instanceof ApiObject).map((o) => o.toJson());
  return validateManifests(raw).map(formatViolation);
}
