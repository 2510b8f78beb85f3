import {
  dns1035LabelErrors, dnsLabelErrors, dnsSubdomainErrors, ianaServiceNameErrors, labelValueErrors, qualifiedNameErrors,
} from '../../src/core/kubernetes-names';
import { formatViolation, validateManifest } from '../../src/schema-validation/manifest-validator';
import { deployment, problems, pvc, service } from '../schema-validation/fixtures';

describe('name rules', () => {
  test('valid names have no problems; invalid ones say why', () => {
    expect(dnsSubdomainErrors('model.cache-1')).toEqual([]);
    expect(dnsSubdomainErrors('Model_Cache')).toHaveLength(1);
    expect(dnsLabelErrors('server')).toEqual([]);
    expect(dnsLabelErrors('a.b')).toHaveLength(1);
    expect(dns1035LabelErrors('chat')).toEqual([]);
    expect(dns1035LabelErrors('8-ball')).toHaveLength(1);
    expect(qualifiedNameErrors('app.kubernetes.io/name')).toEqual([]);
    expect(qualifiedNameErrors('/name')).toEqual(['prefix part must be non-empty']);
    expect(labelValueErrors('')).toEqual([]);
    expect(labelValueErrors('-gpu')).toHaveLength(1);
    expect(ianaServiceNameErrors('http')).toEqual([]);
    expect(ianaServiceNameErrors('80')).toEqual(['must contain at least one letter']);
    expect(ianaServiceNameErrors('a--b')).toEqual(["must not contain consecutive hyphens ('--')"]);
  });
});

// --- Metadata -------------------------------------------------------------------------------------

describe('metadata', () => {
  test('fails when metadata.name is missing', () => {
    const obj: any = pvc();
    delete obj.metadata.name;
    expect(validateManifest(obj).map(formatViolation)).toEqual(['PersistentVolumeClaim/<unnamed>: metadata.name: required field is missing']);
  });

  test('fails when metadata.name is not a DNS subdomain', () => {
    const obj: any = pvc();
    obj.metadata.name = 'Model_Cache';
    expect(problems(obj)).toEqual([
      'metadata.name: "Model_Cache" is not a DNS-1123 subdomain: must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character',
    ]);
    obj.metadata.name = `${'a'.repeat(250)}.bcd`;
    // A long name is shown cut short (a hostile one can be megabytes).
    expect(problems(obj)).toEqual([`metadata.name: "${'a'.repeat(80)}"… (254 characters) is not a DNS-1123 subdomain: must be no more than 253 characters`]);
    obj.metadata.name = 'model.cache-1';
    expect(problems(obj)).toEqual([]);
  });

  test('fails when a label value is too long or malformed', () => {
    const obj: any = deployment();
    obj.metadata.labels['airunway.ai/model'] = 'x'.repeat(64);
    obj.spec.template.metadata.labels.tier = '-gpu';
    expect(problems(obj)).toEqual([
      `metadata.labels["airunway.ai/model"]: label value "${'x'.repeat(64)}" is invalid: must be no more than 63 characters`,
      'spec.template.metadata.labels.tier: label value "-gpu" is invalid: a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character',
    ]);
  });

  test('fails when a label or annotation key is malformed', () => {
    const obj: any = deployment();
    obj.metadata.labels['Example.COM/tier'] = 'gpu';
    obj.metadata.labels['a/b/c'] = 'x';
    obj.metadata.annotations = { ['n'.repeat(64)]: 'x' };
    expect(problems(obj)).toEqual([
      `metadata.annotations.${'n'.repeat(64)}: annotation key "${'n'.repeat(64)}" is invalid: name part must be no more than 63 characters`,
      'metadata.labels["Example.COM/tier"]: label key "Example.COM/tier" is invalid: prefix part must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character',
      'metadata.labels["a/b/c"]: label key "a/b/c" is invalid: a qualified name must consist of alphanumeric characters, \'-\', \'_\' or \'.\', with an optional DNS subdomain prefix and \'/\'',
    ]);
  });

  test('fails on a bad Service name (DNS-1035 label) and unnamed ports of a multi-port Service', () => {
    const obj: any = service();
    obj.metadata.name = '8-ball';
    obj.spec.ports.push({ port: 9090 });
    expect(problems(obj)).toEqual([
      '"8-ball" is not a DNS-1035 label: must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character',
      'required when a Service has more than one port',
    ].map((m, i) => `${['metadata.name', 'spec.ports[1].name'][i]}: ${m}`));
    const long: any = service();
    long.metadata.name = 'a'.repeat(64);
    expect(problems(long)).toEqual(['metadata.name: "' + 'a'.repeat(64) + '" is not a DNS-1035 label: must be no more than 63 characters']);
  });
});
