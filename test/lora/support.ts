/**
 * Synthesizing one deployment with LoRA adapters through the construct, for the LoRA tests.
 */
import { Chart, Testing } from 'cdk8s';
import { GatewayRef, ModelDeployment, ModelDeploymentProps, ProviderRegistry } from '../../src';
import { LORA_ANNOTATION } from '../../src/api/lora/lora-annotation';
import { expectValidManifests } from '../support/schema-validator';

/** Two adapters, one from each kind of source. */
export const TWO_ADAPTERS = [
  'adapters:',
  '  - name: sql',
  '    source: hf://acme/sql-lora@v1',
  '  - name: support.v2',
  '    source: pvc://adapters/support/v2',
].join('\n');

/** The annotations of a deployment with the given LoRA value. */
export function loraAnnotations(value: string): { [key: string]: string } {
  return { [LORA_ANNOTATION]: value };
}

export interface Synthesized {
  readonly errors: string[];
  readonly manifests: any[];
  readonly deployment: ModelDeployment;
}

/**
 * Synthesizes `props` (model Qwen/Qwen3-0.6B on one GPU unless given) in namespace `ml`, with a
 * Gateway in `gateway-system` when `gateway` is true; manifests are schema-checked.
 */
export function synthLora(props: Partial<ModelDeploymentProps>, options: { gateway?: boolean } = {}): Synthesized {
  const app = Testing.app();
  if (options.gateway) new ProviderRegistry(app, 'Providers', { gateway: GatewayRef.fromName('inference-gateway', 'gateway-system') });
  const chart = new Chart(app, 'test', { namespace: 'ml' });
  const deployment = new ModelDeployment(chart, 'qwen', {
    model: { id: 'Qwen/Qwen3-0.6B' },
    resources: { gpu: { count: 1 } },
    ...props,
  });
  const errors = app.node.findAll().flatMap((c) => c.node.validate());
  const manifests = errors.length === 0 ? Testing.synth(chart) : [];
  if (manifests.length > 0) expectValidManifests(manifests);
  return { errors, manifests, deployment };
}

/** The pod spec of the first Deployment (Direct vLLM, llm-d) or of the ModelServing's first role (Kthena). */
export function podSpecOf(manifests: any[], kind = 'Deployment', name?: string): any {
  const found = manifests.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (!found) throw new Error(`no ${kind}${name ? `/${name}` : ''} in ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return kind === 'ModelServing' ? found.spec.template.roles[0].entryTemplate.spec : found.spec.template.spec;
}
