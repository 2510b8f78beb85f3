import { expectValidManifests } from './schema-validator';
import { deployment, inferencePool, modelDeployment, service } from '../schema-validation/fixtures';

// --- The jest helper -------------------------------------------------------------------------------

describe('expectValidManifests', () => {
  test('passes for valid manifests', () => {
    expect(() => expectValidManifests([deployment(), service(), inferencePool()])).not.toThrow();
  });

  test('throws one error listing every violation as <kind>/<name>: <path>: <message>', () => {
    const bad: any = deployment();
    bad.spec.template.spec.containers[0].gpu = 1;
    const badService: any = service();
    badService.metadata.name = 'Chat';
    let message = '';
    try {
      expectValidManifests([bad, badService, modelDeployment(), { apiVersion: 'v1', kind: 'Nope', metadata: { name: 'n' } }]);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toBe([
      '3 schema violation(s) in 4 manifest(s):',
      '  Deployment/chat: spec.template.spec.containers[0].gpu: unknown field (not in the upstream schema; the API server would drop it)',
      '  Service/Chat: metadata.name: "Chat" is not a DNS-1035 label: must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character',
      '  Nope/n: (root): no upstream schema for v1 Nope',
    ].join('\n'));
  });

  test('fails when given nothing', () => {
    expect(() => expectValidManifests([])).toThrow(/no manifests given/);
  });
});
