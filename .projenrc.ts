import { cdk8s, javascript, release } from 'projen';
import { restrictedPathZones } from './projenrc/layers';

/**
 * cdk8s-inference: deploy LLMs on Kubernetes as typed cdk8s code.
 *
 * Everything in package.json, tsconfig*.json and the task definitions is generated from this
 * file: edit it and run `npx projen`.
 */
const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-inference',
  description:
    'cdk8s constructs that synthesize AI Runway ModelDeployments into the upstream Kubernetes objects that serve them (vLLM, Dynamo, KubeRay, KAITO, llm-d, Gateway API Inference Extension).',
  author: 'cdk8s-inference maintainers',
  authorAddress: 'maintainers@users.noreply.a-seed-35faae8c.example',
  repositoryUrl: 'https://github.com/maintainers/cdk8s-inference.git',
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  jsiiVersion: '~6.0.0',
  typescriptVersion: '~5.9.0',

  cdk8sVersion: '2.70.106',
  constructsVersion: '10.8.1',
  // cdk8s-plus of the newest Kubernetes minor on npm (1.34): DRA's resource.k8s.io/v1 needs 1.34+.
  peerDeps: ['cdk8s-plus-34@^2.0.54'],
  devDeps: [
    'cdk8s-plus-34@^2.0.54',
    'cdk8s-cli@^2.207.60',
    // npm scripts run the node binary from node_modules/.bin first: this pins the toolchain to
    // Node 24 on machines whose system Node is older (client-node 2.x needs >= 22.19).
    'node@^24',
    'json-schema-to-typescript@^16.0.0',
    '@types/js-yaml@^4.0.9',
    // bundles the CLI's own modules into one file (lib/cli/bundle.js, see the compile task below)
    'esbuild@^0.28.2',
  ],
  // Non-jsii runtime dependencies must be bundled so they never leak into the jsii type system.
  // @bufbuild/protobuf is a peer dependency of @bufbuild/cel: bundle it too, or a consumer without
  // it cannot load the library (found by the Python bindings smoke test). ajv-formats checks the
  // ipv4/ipv6 formats of upstream schemas in src/schema-validation. js-yaml (already bundled as
  // client-node's) parses the large trusted upstream CRDs several times faster than yaml; user
  // input keeps yaml, for its line/column positions and alias limits.
  bundledDeps: ['@bufbuild/cel@^0.6.1', '@bufbuild/protobuf@^2.6.2', '@kubernetes/client-node@^2.0.1', 'ajv@^8.20.0', 'ajv-formats@^3.0.1', 'js-yaml@^4.1.0', 'yaml@^2.9.1'],
  minNodeVersion: '22.19.0',

  bin: { 'cdk8s-inference': 'bin/cdk8s-inference' },

  // Construct Hub lists a package as a cdk8s construct by these keywords.
  keywords: ['cdk8s', 'cdk8s-construct', 'kubernetes', 'llm', 'inference', 'vllm', 'ai-runway', 'gateway-api', 'dra'],

  // jsii bindings for platform teams outside TypeScript (built by `npx projen package-all`).
  // Java is left out: Maven Central has no org.cdk8s:cdk8s in our peer range and no
  // org.cdk8s:cdk8s-plus-34 at all (checked 2026-11-26; README "Install").
  publishToPypi: { distName: 'cdk8s-inference', module: 'cdk8s_inference' },
  // Go module github.com/maintainers/cdk8s-inference-go/cdk8sinference (test: scripts/check-go-bindings.sh).
  publishToGo: { moduleName: 'github.com/maintainers/cdk8s-inference-go' },

  // No hosted CI or dependency bots: the project's CI is .ci/run. Releases are cut by hand with
  // `npx projen release`: the version comes from the conventional commits since the last tag
  // (commit-and-tag-version), the entry is prepended to CHANGELOG.md, committed and tagged; pushing
  // the tag and publishing dist/ (npm, PyPI, the Go module repository) stay manual: no hosted
  // workflow does them.
  github: false,
  release: true,
  releaseTrigger: release.ReleaseTrigger.manual({ changelogPath: 'CHANGELOG.md', gitPushCommand: '' }),
  // There is no tag yet, and projen would release the first version as 0.0.0 with no changelog
  // entries: the first release is 0.1.0 instead; after it, the conventional commits decide.
  nextVersionCommand: 'node -e "process.stdout.write(process.env.LATEST_TAG ? \'\' : \'minor\')"',
  buildWorkflow: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
  autoApproveUpgrades: false,
  docgen: true,
  eslint: true,
  eslintOptions: {
    dirs: ['src'],
    // Lint only files changed since the last run (cache in node_modules/.cache): the inner loop
    // re-lints a few files instead of all of them. A clean checkout, as in CI, lints everything.
    commandOptions: { extraArgs: ['--cache', '--cache-location', 'node_modules/.cache/eslint/'] },
  },
  jestOptions: {
    // Snapshots are assertions: a changed synthesized YAML must fail the test run (update them
    // deliberately with `npx jest -u` and review the YAML diff), never be rewritten silently.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testTimeout: 60_000,
      // Jest's default leaves a core idle (cores - 1: one worker on a 2-core machine), and the
      // envtest files spend much of their time waiting on the API server: with more workers than
      // cores those waits overlap other files' work. Measured on 2 cores: jest 227 s with 2
      // workers, 195 s with 3, 193 s with 4. A number, not a percentage: Jest reads a percentage
      // above 100% as that many workers.
      maxWorkers: 3,
      // Coverage instrumentation nearly doubled the suite's CPU time (measured: 88 s against 48 s
      // of CPU for test/providers and test/dra); `npm run test:coverage` collects it on request.
      collectCoverage: false,
      // test/simcluster runs in its own task (test:simcluster): simulated GPU clusters, about 9 minutes in one worker.
      testPathIgnorePatterns: ['/node_modules/', '/lib/', '/dist/', '/test/simcluster/'],
      // The per-file table runs to thousands of columns; the summary is what a CI log needs.
      coverageReporters: ['json', 'lcov', 'clover', 'cobertura', 'text-summary'],
    },
  },
  gitignore: ['/dist/', '.tmp/', '/test-reports/'],
  npmIgnoreOptions: { ignorePatterns: ['/examples/', '/scripts/', '/.ci/', '/docs/'] },
});

// The CLI as one file, lib/cli/bundle.js: our compiled modules bundled, every package left
// external (required from node_modules as before, so cdk8s stays the user's own). A one-model
// `synth` loaded about 230 of our modules one by one, a third of its run. The bundle sits in
// lib/cli/ so the paths our modules build from __dirname (`../../package.json`, `../../schemas`)
// resolve as from any lib/ folder. bin/cdk8s-inference runs it; scripts/check-cli-bundle.ts
// proves it writes what lib/cli/main.js writes.
project.compileTask.exec('esbuild lib/cli/main.js --bundle --platform=node --target=node22 --packages=external --outfile=lib/cli/bundle.js --log-level=warning');

// npm 11 skips dependency install scripts unless allowed; node@24 needs its preinstall to fetch
// the platform binary.
project.package.addField('allowScripts', { node: true });

// Generated L1 bindings are huge; linting them is noise.
project.eslint?.addIgnorePattern('src/imports/');
project.eslint?.addLintPattern('examples');
project.eslint?.addLintPattern('scripts');
project.eslint?.allowDevDeps('scripts/**');
project.eslint?.allowDevDeps('examples/**');

// The floors of src/ (projenrc/layers.ts): a folder imports only folders on lower floors, so the
// tree stays layered (scripts/import-graph.ts prints the knot, the cycles and any import back up).
project.eslint?.addRules({ 'import/no-restricted-paths': ['error', { zones: restrictedPathZones() }] });

// The test suite with a coverage report in coverage/ (npm test runs without: see collectCoverage).
project.addTask('test:coverage', {
  description: 'Run the jest suite with coverage (report in coverage/)',
  exec: 'jest --passWithNoTests --ci --coverage',
  receiveArgs: true,
});

// Regenerate the L1 bindings from ../shared/upstream (see scripts/import-crds.ts).
const importTask = project.addTask('import', {
  description: 'Regenerate src/imports/ from the upstream CRDs in ../shared/upstream',
  exec: 'ts-node --project test/tsconfig.json scripts/import-crds.ts',
});

// The AI Runway spec validators as Ajv standalone code (src/core/generated/), from the
// schemas `import` writes; test/admission/precompiled-validators.test.ts fails when they are stale.
const precompileValidators = project.addTask('precompile-validators', {
  description: 'Regenerate src/core/generated/, the ModelDeployment and InferenceProviderConfig spec validators compiled ahead of time',
  exec: 'ts-node --project test/tsconfig.json scripts/precompile-validators.ts',
});
importTask.spawn(precompileValidators);

// The editor schema (schemas/modeldeployment.schema.json, shipped in the package) from the AI
// Runway CRDs in ../shared/upstream; test/editor-schema.test.ts fails when it is stale.
project.addTask('editor-schema', {
  description: 'Regenerate schemas/modeldeployment.schema.json, the JSON Schema editors use for ModelDeployment YAML',
  exec: 'ts-node --project test/tsconfig.json scripts/editor-schema.ts',
});

// The upstream schemas shipped in the package (schemas/upstream/upstream-schemas.json.gz) for
// `cdk8s-inference validate` and the cdk8s validation plugin, from ../shared/upstream;
// test/schema-validation/schema-bundle.test.ts fails when it is stale.
project.addTask('bundle-schemas', {
  description: 'Regenerate schemas/upstream/upstream-schemas.json.gz, the upstream schemas shipped for validate and the cdk8s plugin',
  exec: 'ts-node --project test/tsconfig.json scripts/bundle-upstream-schemas.ts',
});

// The engine argument conformance check with the engines' REAL parsers (vLLM, SGLang, Dynamo's
// workers) from their PyPI packages, in virtualenvs cached outside the clone (about 30 GB; 6 min a
// vLLM venv cold). npm test runs the same corpus against the committed parser definitions.
project.addTask('test:engine-parsers', {
  description: 'Every engine command line of the examples and the matrix through the real engine parsers (builds their virtualenvs once)',
  exec: 'ts-node --project test/tsconfig.json scripts/engine-conformance.ts',
});

// The generated table of the engines' options (src/provider-kit/generated/engine-arguments.ts)
// from the committed parser definitions; test/engines/argument-tables.test.ts fails when stale.
project.addTask('engine-arguments', {
  description: 'Regenerate src/provider-kit/generated/engine-arguments.ts from test/fixtures/engine-parsers',
  exec: 'ts-node --project test/tsconfig.json scripts/engine-parsers/argument-tables.ts',
});

// Every example on a simulated GPU cluster of real upstream parts (kube-apiserver, etcd,
// kube-controller-manager, kube-scheduler, KWOK nodes shaped like GKE and EKS GPU machines with
// NVIDIA's labels and DRA ResourceSlices, the real KubeRay operator): where each pod lands or why
// not, untainted and GKE-tainted, and each DRA claim allocated; the status controller on it. Binaries:
// scripts/envtest/build-binaries.sh and scripts/simcluster/build-binaries.sh (cached).
project.addTask('test:simcluster', {
  description: "Every example's pods on a simulated GPU cluster (kube-scheduler, KWOK GPU nodes, KubeRay, KEDA), their DRA claims against NVML-valued ResourceSlices, the status controller on it",
  exec: 'jest --runInBand --testPathIgnorePatterns=/node_modules/ --testPathPatterns=test/simcluster',
});

// The Deployment and RayService statuses the status tests use, captured again from the real
// deployment controller and KubeRay (test/simcluster/controller.test.ts fails when they changed).
project.addTask('simcluster:capture-statuses', {
  description: 'Rewrite test/fixtures/operator-statuses/real-statuses.json from the simulated cluster\'s deployment controller and KubeRay',
  env: { CAPTURE_STATUSES: '1' },
  exec: 'jest --runInBand --testPathIgnorePatterns=/node_modules/ --testPathPatterns=test/simcluster/controller.test.ts',
});

// The README's table of default images, from src/core/version-matrix.ts (the README test fails when stale).
project.addTask('docs:versions', {
  description: 'Rewrite the README\'s default-image table from src/core/version-matrix.ts',
  exec: 'ts-node --project test/tsconfig.json scripts/version-table.ts',
});

// Synthesize every example into dist/examples (the project's main job).
const synthExamples = project.addTask('synth:examples', {
  description: 'Synthesize every example in examples/ into dist/examples/',
  exec: 'ts-node --project test/tsconfig.json scripts/synth-examples.ts',
});
synthExamples.prependSpawn(project.compileTask);

// The jsii Python bindings, packaged and installed in a fresh virtualenv, run a smoke test.
const pythonBindings = project.addTask('test:python-bindings', {
  description: 'Build the jsii Python bindings, install them in a virtualenv and run a smoke test',
  exec: 'bash scripts/check-python-bindings.sh',
});
pythonBindings.prependSpawn(project.compileTask);

// The jsii Go bindings, compiled into a Go program that synthesizes examples/minimal-gpu.ts.
const goBindings = project.addTask('test:go-bindings', {
  description: 'Build the jsii Go bindings, compile a Go program against them and compare its YAML with the TypeScript example',
  exec: 'bash scripts/check-go-bindings.sh',
});
goBindings.prependSpawn(project.compileTask);

// jsii-pacmak's Go build resolves the cdk8s and cdk8s-plus-34 Go modules; they are generated beside
// ours from the npm packages' assemblies (the Go module proxy reachable here does not serve them)
// and left out of dist/go, which holds only the module to publish.
const goDependencyModules = ['constructs', 'cdk8s', 'cdk8splus34'];
project.tasks.tryFind('package:go')?.reset(
  'jsii-pacmak -v --target go --no-npmignore -o dist node_modules/constructs node_modules/cdk8s node_modules/cdk8s-plus-34 .',
);
project.tasks.tryFind('package:go')?.exec(`rm -rf ${goDependencyModules.map((m) => `dist/go/${m}`).join(' ')}`);

// API.md is the hand-written API; the generated L1 bindings (the namespaces airunway, dynamo, ...)
// would make it 2 MB, so each namespace gets its own file under docs/api/, linked from API.md.
const docgen = project.tasks.tryFind('docgen');
docgen?.reset('rm -rf docs/api && mkdir -p docs/api');
docgen?.exec('jsii-docgen -o docs/api/API.md --split-by-submodule');
// API.md links the namespaces' files from where it lives (an argv, so no shell quoting applies).
docgen?.execArgs([
  'node',
  '-e',
  [
    "const fs = require('fs');",
    "const text = fs.readFileSync('docs/api/API.md', 'utf8')",
    "  .replace(/\\]\\(\\.\\/(\\w+)\\.md\\)/g, '](docs/api/$1.md)')",
    "  .replace('The following submodules are available:', 'The generated L1 bindings of the upstream CRDs (src/imports), one namespace per file:');",
    "fs.writeFileSync('API.md', text);",
    "fs.rmSync('docs/api/API.md');",
  ].join('\n'),
]);
project.gitattributes.addAttributes('/docs/api/*.md', 'linguist-generated');

// The controller image's install step (the Dockerfile's), run without Docker, and its entry point.
const controllerImage = project.addTask('test:controller-image', {
  description: "Pack the library, install it as the controller image's Dockerfile does, and run the entry point",
  exec: 'bash scripts/check-controller-image.sh',
});
controllerImage.prependSpawn(project.compileTask);

// The cdk8s validation plugin through the real cdk8s CLI, from the packed package in a fresh app.
// The CLI bundle against the modules it is made of: the CLI corpus and the examples, byte for byte.
project.addTask('test:cli-bundle', {
  description: 'Check that lib/cli/bundle.js (what bin/cdk8s-inference runs) writes what lib/cli/main.js writes (needs compile and synth:examples)',
  exec: 'bash scripts/check-cli-bundle.sh',
});

const validationPlugin = project.addTask('test:validation-plugin', {
  description: 'Pack the library into a fresh cdk8s app and check the validation plugin through `cdk8s synth`',
  exec: 'bash scripts/check-validation-plugin.sh',
});
validationPlugin.prependSpawn(project.compileTask);

// Synth benchmark (prints figures; not part of the tests).
// `bench` runs the library benchmark, then the CLI's (whole processes, with the YAML floors).
const bench = project.addTask('bench', {
  description: 'Synth benchmarks: the library (a 1,000-deployment fleet in-process, a cold single app), then the CLI (whole processes, the YAML floors, growth to 10,000)',
  exec: 'ts-node --project test/tsconfig.json scripts/benchmark-synth.ts',
});
bench.prependSpawn(project.compileTask);
const benchCli = project.addTask('bench:cli', {
  description: 'CLI benchmark: whole cdk8s-inference synth processes on a 1,000-deployment fleet, the yaml and js-yaml floors, one model cold, growth to 10,000 (needs lib/: run after compile)',
  exec: 'ts-node --project test/tsconfig.json scripts/benchmark-cli.ts',
});
bench.spawn(benchCli);

// Controller benchmark on the envtest API server (prints figures; not part of the tests).
const benchController = project.addTask('bench:controller', {
  description: 'Controller benchmark: 5,000 ModelDeployments on a real API server; change-to-status latency, patches, RSS',
  exec: 'ts-node --project test/tsconfig.json scripts/benchmark-controller.ts',
});
benchController.prependSpawn(project.compileTask);

// The CLI's contract under hostile input through the real binary (issue 14; prints figures).
const fuzzCli = project.addTask('fuzz:cli', {
  description: 'Fuzz the CLI contract through the real binary: 100,000 hostile inputs (--count N, --seed N); exit 0 output valid, exit 1 errors name file and document',
  exec: 'ts-node --project test/tsconfig.json scripts/fuzz-cli.ts',
  receiveArgs: true,
});
fuzzCli.prependSpawn(project.compileTask);

project.synth();
