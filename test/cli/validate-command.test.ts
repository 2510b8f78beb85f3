import * as fs from 'fs';
import * as path from 'path';
import { run, runWithStdin, tempFolderPerTest } from '../support/cli-run';

const temp = tempFolderPerTest('cdk8s-inference-validate-');
const file = temp.file;

const PHI = `apiVersion: airunway.ai/v1alpha1
kind: ModelDeployment
metadata: {name: phi, namespace: team-a}
spec:
  model: {id: microsoft/Phi-4-mini-instruct}
  provider: {name: vllm}
  engine: {type: vllm}
`;

/** A hand-written Deployment; `extra` is appended to its container. */
const deployment = (extra = '', labels = 'app: chat') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat
  labels: {${labels}}
spec:
  selector:
    matchLabels: {app: chat}
  template:
    metadata:
      labels: {app: chat}
    spec:
      containers:
      - name: server
        image: vllm/vllm-openai:v0.10.0
${extra}`;

const HTTP_ROUTE_BAD_PATH = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: qwen, namespace: ml}
spec:
  parentRefs: [{name: inference-gateway}]
  rules:
  - matches:
    - path: {type: PathPrefix, value: "v1//chat"}
`;

const WIDGET = `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
`;

describe('cdk8s-inference validate', () => {
  test('our synth output is valid: exit 0', async () => {
    const synth = await run('synth', '-f', file('phi.yaml', PHI));
    expect(synth.code).toBe(0);
    const r = await run('validate', '-f', file('out.k8s.yaml', synth.stdout));
    expect(r).toEqual({ code: 0, stdout: '3 object(s) valid.\n', stderr: [] });
  });

  test('a hand-written Deployment with an unknown field: exit 1 with file, document, kind/name, line:column and path', async () => {
    const f = file('deploy.yaml', deployment('        imagePullPolcy: Always\n'));
    const r = await run('validate', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toEqual([
      `error: ${f}[doc 1]:16:9: Deployment/chat: spec.template.spec.containers[0].imagePullPolcy: unknown field (not in the upstream schema; the API server would drop it)`,
      '1 error(s) in 1 of 1 object(s).',
    ]);
  });

  test('a CRD object failing a CEL rule, as the second document of a file', async () => {
    const f = file('route.yaml', `${deployment()}---\n${HTTP_ROUTE_BAD_PATH}`);
    const r = await run('validate', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${f}[doc 2]:24:7: HTTPRoute/qwen: spec.rules[0].matches[0].path: value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']`,
      `error: ${f}[doc 2]:24:7: HTTPRoute/qwen: spec.rules[0].matches[0].path: must not contain '//' when type one of ['Exact', 'PathPrefix']`,
      '2 error(s) in 1 of 2 object(s).',
    ]);
  });

  test('a bad label value', async () => {
    const f = file('label.yaml', deployment('', 'app: "not valid!"'));
    const r = await run('validate', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toBe(`error: ${f}[doc 1]:5:12: Deployment/chat: metadata.labels.app: label value "not valid!" is invalid: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`);
  });

  test('an unknown kind is an error naming the known API groups; --skip-unknown-kinds skips it with a warning', async () => {
    const f = file('widget.yaml', `${WIDGET}---\n${deployment()}`);
    const r = await run('validate', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toMatch(new RegExp(`^error: ${escape(f)}\\[doc 1\\]:1:1: Widget/w: \\(root\\): unknown kind: no schema for apiVersion "example.com/v1", kind "Widget"; known API groups: core \\(apiVersion v1\\), .*\\bairunway\\.ai, apps, .*\\bnvidia\\.com, .*\\(--skip-unknown-kinds skips objects of kinds without a schema\\)$`));
    expect(r.stderr[1]).toBe('1 error(s) in 1 of 2 object(s).');

    const skipped = await run('validate', '-f', f, '--skip-unknown-kinds');
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toEqual([expect.stringMatching(new RegExp(`^warning: ${escape(f)}\\[doc 1\\]: Widget/w: skipped: unknown kind: no schema for apiVersion "example.com/v1"`))]);
    expect(skipped.stdout).toBe('1 object(s) valid; 1 of unknown kinds skipped.\n');
  });

  test('a misspelt kind of a known group gets the kinds of that group and a suggestion', async () => {
    const f = file('typo.yaml', deployment().replace('kind: Deployment', 'kind: Deploymnet'));
    const r = await run('validate', '-f', f);
    expect(r.code).toBe(1);
    expect(r.stderr[0]).toContain('Deploymnet/chat: (root): unknown kind: no schema for apiVersion "apps/v1", kind "Deploymnet"; known kinds of group apps: ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet; did you mean "Deployment"?');
    const version = await run('validate', '-f', file('version.yaml', deployment().replace('apps/v1', 'apps/v1beta1')));
    expect(version.stderr[0]).toContain('unknown kind: no schema for apiVersion "apps/v1beta1", kind "Deployment"; Deployment is known as apiVersion apps/v1');
  });

  test('reads stdin', async () => {
    const ok = await runWithStdin(deployment(), 'validate', '-f', '-');
    expect(ok).toEqual({ code: 0, stdout: '1 object(s) valid.\n', stderr: [] });
    const bad = await runWithStdin(HTTP_ROUTE_BAD_PATH, 'validate', '-f', '-');
    expect(bad.code).toBe(1);
    expect(bad.stderr[0]).toMatch(/^error: <stdin>\[doc 1\]:8:7: HTTPRoute\/qwen: spec\.rules\[0\]\.matches\[0\]\.path: /);
  });

  test('reads a directory: its *.yaml and *.yml files, sorted', async () => {
    const dir = path.join(temp.dir(), 'manifests');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'a.yaml'), deployment());
    fs.writeFileSync(path.join(dir, 'b.yml'), HTTP_ROUTE_BAD_PATH);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not yaml: [');
    const r = await run('validate', '-f', dir);
    expect(r.code).toBe(1);
    expect(r.stderr.map((l) => l.split(': ')[1])).toEqual([
      `${path.join(dir, 'b.yml')}[doc 1]:8:7`, `${path.join(dir, 'b.yml')}[doc 1]:8:7`, undefined,
    ]);
    expect(r.stderr[2]).toBe('2 error(s) in 1 of 2 object(s).');
  });

  test('YAML errors, non-objects and empty input are problems, not crashes', async () => {
    const broken = file('broken.yaml', 'apiVersion: [unclosed\n');
    expect((await run('validate', '-f', broken)).stderr[0]).toMatch(new RegExp(`^error: ${escape(broken)}\\[doc 1\\]:2:1: invalid YAML: `));
    const scalar = file('scalar.yaml', 'just a string\n');
    expect((await run('validate', '-f', scalar)).stderr[0]).toBe(`error: ${scalar}[doc 1]:1:1: <no kind>/<unnamed>: (root): must be an object, got string "just a string"`);
    const empty = file('empty.yaml', '---\n');
    expect(await run('validate', '-f', empty)).toEqual({ code: 1, stdout: '', stderr: [`error: ${empty}: no Kubernetes object in the input: nothing to validate`, '1 error(s).'] });
  });

  test('hostile input never crashes or hangs: alias bombs, deep nesting, huge mappings, too many documents, huge files', async () => {
    let bomb = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 10; i++) bomb += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]\n`;
    const files = {
      bomb: file('bomb.yaml', bomb),
      deep: file('deep.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: deep}\nspec: ${'['.repeat(150)}${']'.repeat(150)}\n`),
      veryDeep: file('very-deep.yaml', `a: ${'['.repeat(100000)}${']'.repeat(100000)}\n`),
      keys: file('keys.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many}\ndata:\n${Array.from({ length: 6000 }, (_, i) => `  k${i}: v`).join('\n')}\n`),
      documents: file('documents.yaml', Array.from({ length: 2100 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c${i}}\n`).join('---\n')),
      huge: file('huge.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: huge}\ndata:\n  big: "${'x'.repeat(17 * 1024 * 1024)}"\n`),
    };
    const started = Date.now();
    const r = await run('validate', ...Object.values(files).flatMap((f) => ['-f', f]));
    expect(Date.now() - started).toBeLessThan(20000);
    expect(r.code).toBe(1);
    expect(r.stderr).toEqual([
      `error: ${files.bomb}[doc 1]: invalid YAML: Excessive alias count indicates a resource exhaustion attack`,
      `error: ${files.deep}[doc 1]:4:1: nested more than 100 levels deep; cdk8s-inference reads at most 100 levels`,
      `error: ${files.veryDeep}[doc 1]:1:1: nested more than 100 levels deep; cdk8s-inference reads at most 100 levels`,
      `error: ${files.keys}: a mapping with more than 5000 keys (line 5005); cdk8s-inference reads mappings of at most 5000 keys`,
      `error: ${files.documents}: more than 2000 YAML documents (line 8000); cdk8s-inference reads at most 2000 from one input in this YAML style (flow collections, anchors, tags, ...): split it`,
      `error: ${files.huge}: 17825862 bytes: cdk8s-inference reads at most 16777216 bytes (16 MiB) from one input; split it`,
      expect.stringMatching(/^\d+ error\(s\)/),
    ]);
  });

  test('usage errors exit 2; help shows the flags and examples', async () => {
    expect((await run('validate')).code).toBe(2);
    expect((await run('validate')).stderr[0]).toMatch(/^error: validate needs at least one -f FILE\n\nUsage:\n {2}cdk8s-inference validate -f FILE\|DIR\|- /);
    expect((await run('validate', '-f', 'x.yaml', '--gateway', 'a/b')).stderr[0]).toMatch(/^error: unknown flag "--gateway" for validate/);
    const help = await run('help', 'validate');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--skip-unknown-kinds');
    expect(help.stdout).toContain('cdk8s-inference synth -f modeldeployment.yaml | cdk8s-inference validate -f -');
    expect((await run('--help')).stdout).toContain('cdk8s-inference validate -f FILE|DIR|- [-f ...] [--skip-unknown-kinds]');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
