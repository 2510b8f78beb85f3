/**
 * One AI Runway manifest, eight targets: `modeldeployment.yaml` beside this file is synthesized
 * once for each shipped provider — dynamo, flexinfer, kaito, kthena, kuberay, llmd, modelplane,
 * vllm — with only `spec.provider.name` set, each into a Chart and namespace of its own
 * (`models-<target>`), so the eight renderings of the same intent sit side by side without
 * colliding: a DynamoGraphDeployment, a FlexInfer Model, a KAITO Workspace, a Kthena ModelServing
 * with its ModelServer and ModelRoute, a RayService, llm-d and Direct vLLM Deployments, a
 * modelplane ModelDeployment. Naming the target is the only change; the explicit-only targets
 * (flexinfer, kthena, modelplane) are never picked otherwise.
 *
 * The manifest is what all eight have in common, and every target honours all of it (none warns
 * that it ignores a field; prefix caching is vLLM's default, so FlexInfer and KAITO need no flag
 * for it): a public Hugging Face model on vLLM, one NVIDIA GPU, one replica, aggregated serving.
 * What would take a target out, or make it ignore a field:
 * - `resources.cpu`/`memory`, `tolerations`, `nodeSelector`: modelplane refuses them (its pod
 *   template has no container resources; it places pods by device requests on its own clusters);
 * - `env`, `secrets.huggingFaceToken`: FlexInfer refuses them (a Model has no env field, and its
 *   prefetch Job reads no token), so the model must be public; KAITO ignores both;
 * - `model.servedName`, `engine.contextLength`: KAITO ignores them (its vLLM preset chooses);
 * - a `modelCache` volume: KAITO and llm-d ignore it;
 * - more than one replica: FlexInfer warns (it places them on separate nodes); more than one
 *   GPU: FlexInfer warns (vLLM serves from one) and so does Dynamo unless engine.args sets
 *   tensor-parallel-size;
 * - `serving.mode: disaggregated`: FlexInfer, KAITO and Direct vLLM refuse it;
 * - another engine: sglang runs only on dynamo, kthena and modelplane.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { ModelDeployment, ProviderRegistry } from '../../src';

export function build(app: App): void {
  const manifest = YAML.parse(fs.readFileSync(path.join(__dirname, 'modeldeployment.yaml'), 'utf8'));
  // The shipped providers, sorted by name: AI Runway's five and the three explicit-only ones.
  const targets = new ProviderRegistry(app, 'Providers').providerNames;
  for (const target of targets) {
    const namespace = `${manifest.metadata.namespace}-${target}`;
    const chart = new Chart(app, `one-model-${target}`, { namespace });
    ModelDeployment.fromManifest(chart, 'model', {
      ...manifest,
      metadata: { ...manifest.metadata, namespace },
      spec: { ...manifest.spec, provider: { ...manifest.spec.provider, name: target } },
    });
  }
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
