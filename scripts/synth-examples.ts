/**
 * Synthesizes every example into dist/examples/<example>/: TypeScript examples (a file, or a
 * folder whose `index.ts` is the entry point) through their exported `build(app)` function, YAML
 * examples through the CLI's `synth -o`. Exits non-zero if
 * any example fails, after trying all of them.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App } from 'cdk8s';
import { main as cli } from '../src/cli/main';

const root = path.resolve(__dirname, '..');
const examplesDir = path.join(root, 'examples');
const outRoot = path.join(root, 'dist', 'examples');

async function run(): Promise<number> {
  fs.rmSync(outRoot, { recursive: true, force: true });
  let failures = 0;
  for (const entry of fs.readdirSync(examplesDir).sort()) {
    const file = path.join(examplesDir, entry);
    const name = entry.replace(/\.(ts|ya?ml)$/, '');
    const outdir = path.join(outRoot, name);
    const isFolder = fs.statSync(file).isDirectory() && fs.existsSync(path.join(file, 'index.ts'));
    try {
      if (entry.endsWith('.ts') || isFolder) {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const example = require(file);
        const app = new App({ outdir });
        example.build(app);
        app.synth();
      } else if (/\.ya?ml$/.test(entry)) {
        const code = await cli(['synth', '-f', file, '-o', outdir]);
        if (code !== 0) throw new Error(`cdk8s-inference synth exited with ${code}`);
      } else {
        continue;
      }
      console.log(`synthesized ${entry} -> ${path.relative(root, outdir)}/`);
    } catch (e: any) {
      failures++;
      console.error(`FAILED ${entry}: ${e?.message ?? e}`);
    }
  }
  return failures === 0 ? 0 : 1;
}

void run().then((code) => process.exit(code));
