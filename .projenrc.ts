import { cdk8s, javascript } from 'projen';

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
  ],
  // Non-jsii runtime dependencies must be bundled so they never leak into the jsii type system.
  // @bufbuild/protobuf is a peer dependency of @bufbuild/cel: bundle it too, or a consumer without
  // it cannot load the library (found by the Python bindings smoke test). ajv-formats checks the
  // ipv4/ipv6 formats of upstream schemas in src/schema-validation.
  bundledDeps: ['@bufbuild/cel@^0.6.1', '@bufbuild/protobuf@^2.6.2', '@kubernetes/client-node@^2.0.1', 'ajv@^8.20.0', 'ajv-formats@^3.0.1', 'yaml@^2.9.1'],
  minNodeVersion: '22.19.0',

  bin: { 'cdk8s-inference': 'bin/cdk8s-inference' },

  // jsii bindings for platform teams outside TypeScript (built by `npx projen package-all`).
  // Java is left out until org.cdk8s:cdk8s of our cdk8s version is on Maven Central.
  publishToPypi: { distName: 'cdk8s-inference', module: 'cdk8s_inference' },

  // No hosted CI, release or dependency bots: the project's CI is .ci/run.
  github: false,
  release: false,
  buildWorkflow: false,
  depsUpgrade: false,
  pullRequestTemplate: false,
  autoApproveUpgrades: false,
  docgen: true,
  eslint: true,
  jestOptions: {
    // Snapshots are assertions: a changed synthesized YAML must fail the test run (update them
    // deliberately with `npx jest -u` and review the YAML diff), never be rewritten silently.
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      testTimeout: 60_000,
      testPathIgnorePatterns: ['/node_modules/', '/lib/', '/dist/'],
      // The per-file table runs to thousands of columns; the summary is what a CI log needs.
      coverageReporters: ['json', 'lcov', 'clover', 'cobertura', 'text-summary'],
    },
  },
  gitignore: ['/dist/', '.tmp/', '/test-reports/'],
  npmIgnoreOptions: { ignorePatterns: ['/examples/', '/scripts/', '/.ci/'] },
});

// npm 11 skips dependency install scripts unless allowed; node@24 needs its preinstall to fetch
// the platform binary.
project.package.addField('allowScripts', { node: true });

// Generated L1 bindings are huge; linting them is noise.
project.eslint?.addIgnorePattern('src/imports/');
project.eslint?.addLintPattern('examples');
project.eslint?.addLintPattern('scripts');
project.eslint?.allowDevDeps('scripts/**');
project.eslint?.allowDevDeps('examples/**');

// Regenerate the L1 bindings from ../shared/upstream (see scripts/import-crds.ts).
project.addTask('import', {
  description: 'Regenerate src/imports/ from the upstream CRDs in ../shared/upstream',
  exec: 'ts-node --project test/tsconfig.json scripts/import-crds.ts',
});

// The editor schema (schemas/modeldeployment.schema.json, shipped in the package) from the AI
// Runway CRDs in ../shared/upstream; test/editor-schema.test.ts fails when it is stale.
project.addTask('editor-schema', {
  description: 'Regenerate schemas/modeldeployment.schema.json, the JSON Schema editors use for ModelDeployment YAML',
  exec: 'ts-node --project test/tsconfig.json scripts/editor-schema.ts',
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

// The controller image's install step (the Dockerfile's), run without Docker, and its entry point.
const controllerImage = project.addTask('test:controller-image', {
  description: "Pack the library, install it as the controller image's Dockerfile does, and run the entry point",
  exec: 'bash scripts/check-controller-image.sh',
});
controllerImage.prependSpawn(project.compileTask);

// Synth benchmark (prints figures; not part of the tests).
const bench = project.addTask('bench', {
  description: 'Synth benchmark: a 1,000-deployment fleet and a cold single-app synth',
  exec: 'ts-node --project test/tsconfig.json scripts/benchmark-synth.ts',
});
bench.prependSpawn(project.compileTask);

// Controller benchmark on the envtest API server (prints figures; not part of the tests).
const benchController = project.addTask('bench:controller', {
  description: 'Controller benchmark: 5,000 ModelDeployments on a real API server; change-to-status latency, patches, RSS',
  exec: 'ts-node --project test/tsconfig.json scripts/benchmark-controller.ts',
});
benchController.prependSpawn(project.compileTask);

project.synth();
