import { App, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { formatFieldError } from '../core/field-error';
import { readInferenceProviderConfigManifest } from '../core/inference-provider-config-manifest';
import { InferenceProviderConfig } from '../inference-provider-config';
import { ModelDeployment } from '../model-deployment';
import { ProviderRegistry } from '../provider-registry';
import { InputDocument, InputProblem } from './input-documents';

/** A ModelDeployment built from one input document. */
export interface DocumentDeployment {
  readonly document: InputDocument;
  readonly deployment: ModelDeployment;
}

export interface BuiltApp {
  readonly app: App;
  readonly registry: ProviderRegistry;
  readonly deployments: DocumentDeployment[];
  readonly problems: InputProblem[];
}

/**
 * Builds one cdk8s app from the input documents: InferenceProviderConfigs first (from every
 * file, so a provider may be defined after the deployments that use it), then one
 * ModelDeployment construct per ModelDeployment document. Collects every problem.
 */
export function buildApp(documents: readonly InputDocument[]): BuiltApp {
  const app = new App();
  const chart = new Chart(app, 'models', { disableResourceNameHashes: true });
  const problems: InputProblem[] = [];
  const registry = buildRegistry(app, documents, problems);
  const deployments: DocumentDeployment[] = [];

  documents.forEach((doc, n) => {
    const kind = doc.content?.kind;
    if (kind === 'InferenceProviderConfig') return;
    if (kind !== 'ModelDeployment') {
      problems.push({
        file: doc.file,
        index: doc.index,
        message: `unsupported kind ${JSON.stringify(kind ?? null)}: expected ModelDeployment or InferenceProviderConfig (apiVersion airunway.ai/v1alpha1)`,
      });
      return;
    }
    const deployment = ModelDeployment.fromManifest(chart, `document-${n}`, doc.content);
    deployments.push({ document: doc, deployment });
    for (const message of deployment.node.validate()) {
      problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message });
    }
  });

  // Cross-deployment checks (name collisions) are registered on the app root.
  for (const message of app.node.validate()) problems.push({ file: '<all inputs>', message });
  return { app, registry, deployments, problems };
}

/**
 * The shipped providers, with every InferenceProviderConfig document of the input added or
 * replacing a shipped one of the same name.
 */
export function buildRegistry(scope: Construct, documents: readonly InputDocument[], problems: InputProblem[]): ProviderRegistry {
  const registry = new ProviderRegistry(scope, 'Providers');
  for (const doc of documents) {
    if (doc.content?.kind !== 'InferenceProviderConfig') continue;
    const { entry, errors } = readInferenceProviderConfigManifest(doc.content);
    for (const e of errors) problems.push({ file: doc.file, index: doc.index, subject: subject(doc), message: formatFieldError(e) });
    if (entry) registry.register(InferenceProviderConfig._fromEntry(entry));
  }
  return registry;
}

export function subject(doc: InputDocument): string {
  const meta = doc.content?.metadata ?? {};
  const name = typeof meta.name === 'string' ? meta.name : '<unnamed>';
  return `${doc.content?.kind ?? 'object'} ${typeof meta.namespace === 'string' ? meta.namespace + '/' : ''}${name}`;
}
