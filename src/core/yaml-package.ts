/**
 * The `yaml` package, loaded at its first use: most syntheses never need it (annotations written
 * as YAML, KubeRay serve configs, provider config files, and the CLI's input only where the fast
 * reader leaves a text to it), and it is about seventy modules, a tenth of a cold CLI start.
 */
export function yamlPackage(): typeof import('yaml') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('yaml');
}
