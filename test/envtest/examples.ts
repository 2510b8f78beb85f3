/**
 * Every example in examples/, synthesized the way test/examples.test.ts does it: TypeScript
 * examples (a file, or a folder whose `index.ts` is the entry point) through their exported
 * `build(app)`, YAML examples through the CLI's `main(['synth', '-f', file])`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Testing } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { KubeObject } from './kube-client';
import { main } from '../../src/cli/main';

export const EXAMPLES_DIR = path.resolve(__dirname, '..', '..', 'examples');

export interface SynthesizedExample {
  /** File or folder name in examples/. */
  readonly name: string;
  readonly objects: KubeObject[];
}

/** The example entries, sorted: TypeScript files and folders with index.ts, then YAML files. */
export function exampleEntries(): { ts: string[]; yaml: string[] } {
  const entries = fs.readdirSync(EXAMPLES_DIR).sort();
  return {
    ts: entries.filter((f) => f.endsWith('.ts') || fs.existsSync(path.join(EXAMPLES_DIR, f, 'index.ts'))),
    yaml: entries.filter((f) => /\.ya?ml$/.test(f)),
  };
}

/** Synthesizes one example; throws with the example's errors. */
export async function synthesizeExample(name: string): Promise<SynthesizedExample> {
  const file = path.join(EXAMPLES_DIR, name);
  if (/\.ya?ml$/.test(name)) {
    let stdout = '';
    const stderr: string[] = [];
    const code = await main(['synth', '-f', file], { stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l) });
    if (code !== 0) throw new Error(`${name}: the CLI exited with ${code}:\n${stderr.join('\n')}`);
    return { name, objects: parseAllDocuments(stdout).map((d) => d.toJS()).filter((o) => o) };
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const example = require(file);
  const app = Testing.app();
  example.build(app);
  return { name, objects: synthesizeApp(app) };
}

/** Every object of every chart of the app, as `cdk8s synth` would write them (validations first, as App.synth() does). */
function synthesizeApp(app: App): KubeObject[] {
  const errors = app.node.findAll().flatMap((c) => c.node.validate().map((e) => `[${c.node.path}] ${e}`));
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return app.charts.flatMap((chart) => Testing.synth(chart));
}
