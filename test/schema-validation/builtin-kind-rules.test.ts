import { clone, deployment, job, problems } from './fixtures';

describe('Go-side rules of built-in kinds', () => {
  test('fails when a workload has no spec at all', () => {
    const obj: any = deployment();
    delete obj.spec;
    expect(problems(obj)).toEqual(['spec: required field is missing']);
  });

  test('fails when an apps/v1 selector does not match the template labels', () => {
    const obj: any = deployment();
    obj.spec.template.metadata.labels = { app: 'other' };
    expect(problems(obj)).toEqual(['spec.template.metadata.labels: `selector` does not match template `labels`']);
  });

  test('fails on invalid container names and container port names', () => {
    const obj: any = deployment();
    const containers = obj.spec.template.spec.containers;
    containers.push({ ...clone(containers[0]), name: 'Server_2' });
    containers[0].ports[0].name = 'http-port-too-long';
    expect(problems(obj)).toEqual([
      'spec.template.spec.containers[0].ports[0].name: "http-port-too-long" is not an IANA service name: must be no more than 15 characters',
      'spec.template.spec.containers[1].name: "Server_2" is not a DNS-1123 label: must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character',
    ]);
  });

  test('fails when a Job pod template does not set restartPolicy OnFailure or Never', () => {
    const obj: any = job();
    delete obj.spec.template.spec.restartPolicy;
    expect(problems(obj)).toEqual([
      'spec.template.spec.restartPolicy: a Job pod template must set "OnFailure" or "Never", got nothing (defaults to "Always")',
    ]);
  });
});
