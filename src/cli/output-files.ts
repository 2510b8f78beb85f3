import * as path from 'path';

/**
 * Where `synth -o DIR` writes an object set: `DIR/<namespace>/<name>.k8s.yaml` (no namespace:
 * `DIR/<name>.k8s.yaml`); Gateways get `.gateway.k8s.yaml`, which no deployment name (no dots) can
 * produce. A directory per namespace keeps `a-b/c` and `a/b-c` apart, and the final check keeps
 * every file inside DIR whatever the names contain.
 */
export function outputFile(outdir: string, namespace: string | undefined, name: string, suffix: '.k8s.yaml' | '.gateway.k8s.yaml'): string {
  const root = path.resolve(outdir);
  const file = path.resolve(root, ...(namespace ? [namespace] : []), `${name}${suffix}`);
  if (!file.startsWith(root + path.sep) || /[/\\]/.test(name) || (namespace !== undefined && /[/\\]|^\.\.?$/.test(namespace))) {
    throw new Error(`refusing to write ${JSON.stringify(`${namespace ?? ''}/${name}`)} outside ${root}`);
  }
  return file;
}
