/**
 * A `node -r` hook that runs the TypeScript sources of this repository in a child process, as
 * `ts-node/register/transpile-only` does, but keeps each file's JavaScript on disk between
 * processes. The envtest tests spawn the controller a dozen times per run and the module-weight
 * tests load whole entry points: with ts-node each of those processes transpiled the same ~450
 * modules again (about 5 s of CPU each); with this hook only a changed file is transpiled, and
 * TypeScript itself is loaded only then.
 *
 * Output: CommonJS for ES2022 with inline source maps, from the compiler options of tsconfig.json
 * (type-checking is the job of tsc and jest, as with transpile-only). Cache entries are keyed by
 * the file's path and content and by the TypeScript version; the directory is
 * `$CDK8S_INFERENCE_TS_CACHE` or `node_modules/.cache/cdk8s-inference-ts` of this checkout. Writes are atomic, so
 * parallel processes can share it; any I/O problem just means transpiling.
 */
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');
// Inside the checkout (not a shared temp dir): the files are executed.
const CACHE_DIR = process.env.CDK8S_INFERENCE_TS_CACHE || path.join(ROOT, 'node_modules', '.cache', 'cdk8s-inference-ts');
const TYPESCRIPT_VERSION = require('typescript/package.json').version;

let typescript;
let compilerOptions;

function transpile(source, file) {
  typescript = typescript || require('typescript');
  compilerOptions = compilerOptions || {
    ...typescript.convertCompilerOptionsFromJson(
      typescript.readConfigFile(path.join(ROOT, 'tsconfig.json'), typescript.sys.readFile).config.compilerOptions, ROOT).options,
    module: typescript.ModuleKind.CommonJS,
    moduleResolution: typescript.ModuleResolutionKind.Node10,
    inlineSourceMap: true,
    inlineSources: true,
    declaration: false,
    noEmit: false,
  };
  return typescript.transpileModule(source, { compilerOptions, fileName: file }).outputText;
}

function cachedJavaScript(source, file) {
  const key = crypto.createHash('sha1').update(TYPESCRIPT_VERSION).update('\0').update(file).update('\0').update(source).digest('hex');
  const cached = path.join(CACHE_DIR, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    // Not cached yet.
  }
  const js = transpile(source, file);
  const tmp = `${cached}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(tmp, js);
    fs.renameSync(tmp, cached);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
  return js;
}

require.extensions['.ts'] = (module, file) => {
  module._compile(cachedJavaScript(fs.readFileSync(file, 'utf8'), file), file);
};
