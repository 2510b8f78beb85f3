import type { ModelSpecJson } from './model-spec-json';

/** An object FlexInfer's controller creates for a Model, named after it. */
export interface ModelDerivedObject {
  readonly kind: string;
  readonly name: string;
}

/**
 * What FlexInfer's controller creates from a Model named `name` and names after it: the Service
 * (and Deployment) `<name>`, and for some cache strategies a Job — `<name>-cache-prefetch` that
 * stages a Hugging Face model into the SharedPVC cache, `<name>-cache-check` that checks a
 * mounted pvc:// source or a Local cache on selected nodes. Those names must be valid too, so a
 * Model name that makes one invalid fails at synth.
 */
export function modelDerivedObjects(name: string, spec: Pick<ModelSpecJson, 'source' | 'cache' | 'nodeSelector'>): ModelDerivedObject[] {
  const strategy = spec.cache?.strategy;
  const hasNodeSelector = spec.nodeSelector !== undefined && Object.keys(spec.nodeSelector).length > 0;
  const jobs: string[] = [];
  if (spec.source.startsWith('HF://') && strategy === 'SharedPVC') jobs.push(`${name}-cache-prefetch`);
  else if (spec.source.startsWith('pvc://') && strategy === 'None') jobs.push(`${name}-cache-check`);
  else if (strategy === 'Local' && hasNodeSelector) jobs.push(`${name}-cache-check`);
  return [{ kind: 'Service', name }, ...jobs.map((job) => ({ kind: 'Job', name: job }))];
}
