/**
 * The controller process loads only what reconciling needs: the providers' validation and status
 * mapping, never their translators, cdk8s-plus-34 or the generated bindings (each a few MiB of
 * memory and tens of milliseconds of start-up in a process that runs all day). A provider module
 * that imports a translator-side module at its top level breaks this silently; this test loads the
 * controller's entry point in a fresh Node process and lists what came with it.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..', '..');

test('the controller entry point loads no translator-only module', () => {
  const script = [
    "require('./src/controller/runtime/run-controller.ts');",
    'const loaded = Object.keys(require.cache);',
    'console.log(JSON.stringify({ count: loaded.length, heavy: loaded.filter((f) => /cdk8s-plus-34|[\\\\/]src[\\\\/]imports[\\\\/]|translator\\.ts$/.test(f)) }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.json') },
  });
  const { count, heavy } = JSON.parse(out.trim().split('\n').pop()!);
  expect(heavy).toEqual([]);
  // A sanity bound that the probe loaded the controller at all.
  expect(count).toBeGreaterThan(100);
}, 120_000);
