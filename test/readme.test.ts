import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import * as library from '../src';
import { expectValidManifests } from './support/schema-validator';
import { withVersionTable } from '../scripts/version-table';

/**
 * The README's TypeScript snippets are run as written (with `cdk8s-inference` resolved to this
 * checkout), so the documentation cannot drift from the code without a failing test.
 */
const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);

describe('README snippets', () => {
  let outdir: string;
  beforeEach(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-'));
    process.env.CDK8S_OUTDIR = outdir;
  });
  afterEach(() => {
    delete process.env.CDK8S_OUTDIR;
    fs.rmSync(outdir, { recursive: true, force: true });
  });

  test('there are snippets', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(3);
  });

  test.each(snippets.map((s, i) => [i, s]))('snippet %d type-checks, runs and synthesizes valid objects', (i, source) => {
    expect(typeErrors()[i as number]).toEqual([]);
    const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 };
    const js = ts.transpileModule(source as string, { compilerOptions }).outputText;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const requireForSnippet = (id: string): unknown => (id === 'cdk8s-inference' ? library : require(id));
    new Function('require', 'exports', js)(requireForSnippet, {});
    const written = fs.readdirSync(outdir).filter((f) => f.endsWith('.k8s.yaml'));
    if (/app\.synth\(\)/.test(source as string)) expect(written.length).toBeGreaterThan(0);
    const manifests = written.flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf8')).map((d) => d.toJS()));
    // CustomResourceDefinitions have no OpenAPI document in ../shared/upstream: the real API
    // server validates them (test/envtest).
    const validatable = manifests.filter((m) => m.kind !== 'CustomResourceDefinition');
    if (validatable.length > 0) expectValidManifests(validatable);
  });
});

/**
 * Type errors of each snippet, compiled against this checkout's sources. One program holds every
 * snippet (each its own file), so the library's sources are parsed once rather than once per
 * snippet; computed on first use.
 */
let snippetTypeErrors: string[][] | undefined;
function typeErrors(): string[][] {
  snippetTypeErrors ??= typeCheck(snippets);
  return snippetTypeErrors;
}

function typeCheck(sources: readonly string[]): string[][] {
  const files = sources.map((_s, i) => path.join(__dirname, `__readme_snippet_${i}__.ts`));
  const texts = new Map(files.map((f, i) => [f, sources[i].replace(/from 'cdk8s-inference'/g, "from '../src'")]));
  const host = ts.createCompilerHost({});
  const readFile = host.readFile;
  host.readFile = (f) => texts.get(path.resolve(f)) ?? readFile(f);
  const fileExists = host.fileExists;
  host.fileExists = (f) => texts.has(path.resolve(f)) || fileExists(f);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    esModuleInterop: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    types: [],
  };
  const program = ts.createProgram(files, options, host);
  const optionErrors = program.getOptionsDiagnostics();
  if (optionErrors.length > 0) throw new Error(optionErrors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
  // Only the snippets' own diagnostics are asked for: the checker then resolves just the library
  // types they use instead of checking every source file (tsc and jsii check those).
  return files.map((file) => {
    const sourceFile = program.getSourceFile(file)!;
    return [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  });
}

describe('README version table', () => {
  test('is the version matrix (npx projen docs:versions rewrites it)', () => {
    expect(readme).toBe(withVersionTable(readme));
  });
});
