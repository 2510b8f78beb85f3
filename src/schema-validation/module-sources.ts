import * as fs from 'fs';
import * as path from 'path';

/**
 * The source text of the named modules of this folder (base names), to key a cache by the code
 * that produced its entries. Their extension is this module's own: .ts when run from src/ (jest,
 * ts-node), .js when compiled to lib/.
 *
 * The CLI's bundle (lib/cli/bundle.js, one file of all our modules) has no such files: there the
 * file that runs this code, the bundle, is the source, so an upgrade still invalidates the cache.
 * Undefined when neither can be read; the caller then keys by the content alone.
 */
export function moduleSources(modules: readonly string[], dir: string = __dirname, runningFile: string = __filename): string | undefined {
  const ext = path.extname(runningFile);
  try {
    return modules.map((m) => fs.readFileSync(path.join(dir, `${m}${ext}`), 'utf8')).join('\n');
  } catch {
    // Not beside this code: bundled.
  }
  try {
    return fs.readFileSync(runningFile, 'utf8');
  } catch {
    return undefined;
  }
}
