/**
 * The annotation `inference.cdk8s.io/lora` read alone: what it accepts, and for every problem the
 * field path under the annotation, the value and what is allowed.
 */
import { LoraSettings, MAX_LORA_ANNOTATION_BYTES, readLoraAnnotation } from '../../../src/api/lora/lora-annotation';
import { formatFieldError } from '../../../src/core/field-error';
import { loraAnnotations, TWO_ADAPTERS } from '../../lora/support';

const AT = 'metadata.annotations["inference.cdk8s.io/lora"]';

function errorsOf(value: string): string[] {
  return readLoraAnnotation(loraAnnotations(value)).errors.map(formatFieldError);
}

function settingsOf(value: string): LoraSettings | undefined {
  const read = readLoraAnnotation(loraAnnotations(value));
  expect(read.errors).toEqual([]);
  return read.settings;
}

describe('inference.cdk8s.io/lora', () => {
  test('no annotation: no adapters and no errors', () => {
    expect(readLoraAnnotation({ other: 'x' })).toEqual({ errors: [] });
    expect(readLoraAnnotation(undefined)).toEqual({ errors: [] });
  });

  test('reads both kinds of source; maxLoras defaults to the number of adapters and maxRank is left unset', () => {
    expect(settingsOf(TWO_ADAPTERS)).toEqual({
      adapters: [
        { name: 'sql', source: { kind: 'huggingFace', repo: 'acme/sql-lora', revision: 'v1' } },
        { name: 'support.v2', source: { kind: 'persistentVolumeClaim', claimName: 'adapters', path: 'support/v2' } },
      ],
      maxLoras: 2,
    });
  });

  test('reads JSON, a source without revision, a claim root, maxRank and maxLoras', () => {
    const value = JSON.stringify({
      adapters: [{ name: 'a', source: 'hf://org/a' }, { name: 'b', source: 'pvc://claim' }, { name: 'c', source: 'pvc://claim/' }],
      maxRank: 64,
      maxLoras: 1,
    });
    expect(settingsOf(value)).toEqual({
      adapters: [
        { name: 'a', source: { kind: 'huggingFace', repo: 'org/a' } },
        { name: 'b', source: { kind: 'persistentVolumeClaim', claimName: 'claim', path: '' } },
        { name: 'c', source: { kind: 'persistentVolumeClaim', claimName: 'claim', path: '' } },
      ],
      maxRank: 64,
      maxLoras: 1,
    });
  });

  test('fails when the value is not YAML, not a mapping, or too large', () => {
    expect(errorsOf('adapters: [')[0]).toMatch(new RegExp(`^${escape(AT)}: Invalid value: "adapters: \\[": is not YAML or JSON`));
    expect(errorsOf('- a')).toEqual([`${AT}: Invalid value: "- a": must be a mapping with a list of adapters under "adapters" (each with name and source), and optionally maxRank and maxLoras`]);
    const big = `adapters: []\n#${'x'.repeat(MAX_LORA_ANNOTATION_BYTES)}`;
    expect(errorsOf(big)[0]).toContain(`more than the ${MAX_LORA_ANNOTATION_BYTES} allowed`);
  });

  test('fails on unknown keys, at the top and in an adapter', () => {
    expect(errorsOf('adapters:\n  - {name: a, source: "hf://o/a", weight: 2}\nrank: 8')).toEqual([
      `${AT}.rank: Unsupported value: "rank": supported values: "adapters", "maxRank", "maxLoras"`,
      `${AT}.adapters[0].weight: Unsupported value: "weight": supported values: "name", "source"`,
    ]);
  });

  test('fails when there are no adapters, they are not a list, or there are more than 32', () => {
    expect(errorsOf('maxRank: 8')).toEqual([`${AT}.adapters: Required value: list at least one adapter (name and source), or remove the annotation`]);
    expect(errorsOf('adapters: []')).toEqual([`${AT}.adapters: Required value: list at least one adapter (name and source), or remove the annotation`]);
    expect(errorsOf('adapters: sql')).toEqual([`${AT}.adapters: Invalid value: "sql": must be a list of adapters, each a mapping with name and source`]);
    const many = JSON.stringify({ adapters: Array.from({ length: 33 }, (_, i) => ({ name: `a${i}`, source: `hf://o/a${i}` })) });
    expect(errorsOf(many)).toEqual([`${AT}.adapters: Invalid value: "33 adapters": at most 32 adapters per deployment`]);
  });

  test('fails on a missing, malformed or repeated name', () => {
    const value = JSON.stringify({
      adapters: [
        { source: 'hf://o/a' },
        { name: '-dash', source: 'hf://o/a' },
        { name: 'a=b', source: 'hf://o/a' },
        { name: 'x'.repeat(64), source: 'hf://o/a' },
        { name: 7, source: 'hf://o/a' },
        { name: 'ok', source: 'hf://o/a' },
        { name: 'ok', source: 'hf://o/b' },
      ],
    });
    const allowed = 'must be 1 to 63 letters, digits, "-", "_" and ".", starting with a letter or digit';
    expect(errorsOf(value)).toEqual([
      `${AT}.adapters[0].name: Required value: the model name clients send to use the adapter`,
      `${AT}.adapters[1].name: Invalid value: "-dash": ${allowed}`,
      `${AT}.adapters[2].name: Invalid value: "a=b": ${allowed}`,
      `${AT}.adapters[3].name: Invalid value: "${'x'.repeat(64)}": ${allowed}`,
      `${AT}.adapters[4].name: Invalid value: 7: ${allowed}`,
      `${AT}.adapters[6].name: Invalid value: "ok": is also the name of adapters[5]; each adapter needs its own model name`,
    ]);
  });

  test.each([
    ['s3://bucket/a', 'must be hf://<org>/<repo>[@<revision>] or pvc://<claim>[/<path>]'],
    ['hf://just-a-repo', 'must name a Hugging Face repository as hf://<org>/<repo>'],
    ['hf://o/a/b', 'must name a Hugging Face repository as hf://<org>/<repo>'],
    ['hf://-o/a', 'must name a Hugging Face repository as hf://<org>/<repo>'],
    ['hf://o/a--b', 'without "--" or ".."'],
    ['hf://o/a@', 'has a revision (after "@") that is not a branch, tag or commit'],
    ['hf://o/a@--local-dir=/etc', 'has a revision (after "@") that is not a branch, tag or commit'],
    ['hf://o/a@refs/../main', 'without empty, "." or ".." parts'],
    ['pvc://Claims/a', 'the claim name "Claims" is not a DNS label'],
    ['pvc:///a', 'the claim name "" is not a DNS label'],
    ['pvc://claim/../etc', 'has the path "../etc" inside the claim'],
    ['pvc://claim/a//b', 'has the path "a//b" inside the claim'],
    ['pvc://claim/a b', 'has the path "a b" inside the claim'],
  ])('fails on the source %s', (source, problem) => {
    const errors = errorsOf(JSON.stringify({ adapters: [{ name: 'a', source }] }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`${AT}.adapters[0].source: Invalid value: ${JSON.stringify(source)}: `);
    expect(errors[0]).toContain(problem);
  });

  test('fails on a missing or non-string source', () => {
    expect(errorsOf(JSON.stringify({ adapters: [{ name: 'a' }, { name: 'b', source: 3 }] }))).toEqual([
      `${AT}.adapters[0].source: Required value: where the adapter's weights are: hf://<org>/<repo>[@<revision>] or pvc://<claim>[/<path>]`,
      `${AT}.adapters[1].source: Invalid value: 3: must be a string: hf://<org>/<repo>[@<revision>] or pvc://<claim>[/<path>]`,
    ]);
  });

  test('fails on a rank vLLM refuses', () => {
    expect(errorsOf(`${TWO_ADAPTERS}\nmaxRank: 24`)).toEqual([
      `${AT}.maxRank: Unsupported value: 24: supported values: "8", "16", "32", "64", "128", "256", "320", "512"`,
    ]);
  });

  test.each([0, 3, 1.5, '2'])('fails on maxLoras %p with two adapters', (maxLoras) => {
    expect(errorsOf(`${TWO_ADAPTERS}\nmaxLoras: ${JSON.stringify(maxLoras)}`)).toEqual([
      `${AT}.maxLoras: Invalid value: ${JSON.stringify(maxLoras)}: must be a whole number from 1 to the number of adapters (2): ` +
        'the adapters one batch can mix, each taking a slot of GPU memory',
    ]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
