/**
 * The controller process loads only what reconciling needs: the providers' validation and status
 * mapping, never their translators, cdk8s-plus-34 or the generated bindings (each a few MiB of
 * memory and tens of milliseconds of start-up in a process that runs all day). A provider module
 * that imports a translator-side module at its top level breaks this silently; this test loads the
 * controller's entry point in a fresh Node process and lists what came with it. The same holds for
 * @kubernetes/client-node, which cluster-credentials.ts loads only for the kubeconfig plugins it
 * implements.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..', '..');
/** Runs the sources in the child process (their transpiled JavaScript cached between processes). */
const REGISTER_TS = path.join(ROOT, 'test', 'support', 'register-ts-cached.js');

/**
 * Loads `entry` in a fresh Node process; returns how many modules came with it and those whose
 * path matches `heavy`.
 */
function loadedModules(entry: string, heavy: RegExp): { count: number; heavy: string[] } {
  const script = [
    `require(${JSON.stringify(entry)});`,
    'const loaded = Object.keys(require.cache);',
    `console.log(JSON.stringify({ count: loaded.length, heavy: loaded.filter((f) => ${heavy}.test(f)) }));`,
  ].join('\n');
  const out = execFileSync(process.execPath, ['-r', REGISTER_TS, '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

test('the controller entry point loads no translator-only module', () => {
  // @kubernetes/client-node is loaded only for kubeconfig plugins (exec, auth-provider): its
  // generated API client alone is tens of MiB.
  const { count, heavy } = loadedModules('./src/controller/runtime/run-controller.ts',
    /cdk8s-plus-34|@kubernetes[\\/]client-node|[\\/]src[\\/]imports[\\/]|translator\.ts$/);
  expect(heavy).toEqual([]);
  // A sanity bound that the probe loaded the controller at all.
  expect(count).toBeGreaterThan(100);
}, 120_000);

test('the CLI entry point loads a command\'s modules only when that command runs', () => {
  // The image runs `cdk8s-inference controller`: main.ts must not load synth, explain or validate.
  const { count, heavy } = loadedModules('./src/cli/main.ts',
    /cdk8s-plus-34|[\\/]src[\\/]imports[\\/]|(synth|explain|validate|controller)-command\.ts$|upstream-schemas\.ts$/);
  expect(heavy).toEqual([]);
  expect(count).toBeGreaterThan(3);
}, 120_000);
