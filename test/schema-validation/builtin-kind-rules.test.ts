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

  test('fails when a container consumes a DRA claim the pod does not declare, and passes when it does', () => {
    const obj: any = deployment();
    const pod = obj.spec.template.spec;
    pod.containers[0].resources = { claims: [{ name: 'devices' }] };
    expect(problems(obj)).toEqual([
      'spec.template.spec.containers[0].resources.claims[0].name: "devices" must be the name of one of the pod\'s resourceClaims',
    ]);
    pod.resourceClaims = [{ name: 'devices', resourceClaimTemplateName: 'qwen-devices' }];
    expect(problems(obj)).toEqual([]);
  });

  test('compiles the CEL device selectors of ResourceClaimTemplates and DeviceClasses, with the position of an error', () => {
    const selector = (expression: string) => ({ cel: { expression } });
    const template: any = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'qwen-devices', namespace: 'ml' },
      spec: {
        spec: {
          devices: {
            requests: [{
              name: 'gpu',
              exactly: {
                deviceClassName: 'gpu.nvidia.com',
                selectors: [selector('device.driver == "gpu.nvidia.com"'), selector('device.capacity["gpu.nvidia.com"].memory >= 5')],
              },
            }],
          },
        },
      },
    };
    const [only, ...rest] = problems(template);
    expect(rest).toEqual([]);
    expect(only).toMatch(/^spec\.spec\.devices\.requests\[0\]\.exactly\.selectors\[1\]\.cel\.expression: compilation failed: <input>:1:/);
    const deviceClass: any = {
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'h100' },
      spec: { selectors: [selector('device.attributes["gpu.nvidia.com"].productName == "NVIDIA H100 80GB HBM3"'), selector('gpu')] },
    };
    expect(problems(deviceClass)).toEqual([expect.stringMatching(/^spec\.selectors\[1\]\.cel\.expression: compilation failed: <input>:1:1: undeclared reference to 'gpu'/)]);
  });
});
