import { disaggregatedDeployment, FixtureOptions, kthenaDeployment, sglangDeployment, sglangDisaggregatedDeployment } from './fixtures';
import { toResolvedDeployment } from '../../../src/api/resolved-model-deployment';
import type { ResolvedModelDeployment } from '../../../src/api/resolved-model-deployment';
import { KthenaProvider } from '../../../src/providers/kthena';
import { KTHENA_VLLM_KV_TRANSFER_CONFIG } from '../../../src/providers/kthena/args';
import { translatorHarness } from '../../support/translator-harness';

const provider = new KthenaProvider();
const harness = translatorHarness(provider, kthenaDeployment);
const { errorsOf, withOverrides } = harness;

const PORT_REASON = 'the container port, the probes, the Service and the ModelServer\'s workloadPort expect the engine on 0.0.0.0:8000';
const MODEL_REASON = 'the ModelServer and the ModelRoute route by the model the engine serves, which comes from spec.model.id and spec.model.servedName; set those instead';

function overrideErrors(overrides: unknown, options: FixtureOptions = {}): string[] {
  return errorsOf(kthenaDeployment({ ...options, spec: { ...options.spec, ...withOverrides(overrides).spec } }));
}

describe('Kthena validation', () => {
  test('accepts the baseline deployments of both engines and modes', () => {
    for (const md of [kthenaDeployment(), sglangDeployment(), disaggregatedDeployment(), sglangDisaggregatedDeployment()]) {
      expect(errorsOf(md)).toEqual([]);
    }
  });

  describe('engine', () => {
    test.each(['trtllm', 'llamacpp'])('fails when the engine is %s, and checks nothing else', (engine) => {
      expect(errorsOf({ spec: { engine: { type: engine as 'trtllm' }, resources: {} } })).toEqual([
        `spec.engine.type: Invalid value: "${engine}": Kthena serves only the vllm and sglang engines (ModelServer inferenceEngine vLLM or SGLang), ` +
          `got ${engine}; choose another provider for it`,
      ]);
    });
  });

  describe('GPUs and roles', () => {
    test('fails when an aggregated deployment has no GPU count, or zero GPUs', () => {
      expect(errorsOf({ spec: { resources: {} } })).toEqual([
        'spec.resources.gpu.count: Required value: Kthena runs vllm on GPUs: the server role needs spec.resources.gpu.count > 0',
      ]);
      expect(errorsOf({ spec: { resources: { gpu: { count: 0 } } } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: Kthena runs vllm on GPUs: the server role needs spec.resources.gpu.count > 0',
      ]);
    });

    test('fails when a prefill/decode component is missing', () => {
      expect(errorsOf(disaggregatedDeployment({}, { decode: { replicas: 1, gpu: { count: 1 } } }))).toEqual([
        'spec.scaling.prefill: Required value: spec.scaling.prefill is required for disaggregated serving mode',
      ]);
      expect(errorsOf(disaggregatedDeployment({}, {}))).toEqual([
        'spec.scaling.prefill: Required value: spec.scaling.prefill is required for disaggregated serving mode',
        'spec.scaling.decode: Required value: spec.scaling.decode is required for disaggregated serving mode',
      ]);
    });

    test('fails when a prefill/decode component has no GPUs', () => {
      expect(errorsOf(disaggregatedDeployment({}, { prefill: { replicas: 1, gpu: { count: 0 } }, decode: { replicas: 1 } }))).toEqual([
        'spec.scaling.prefill.gpu.count: Invalid value: 0: Kthena runs vllm on GPUs: the prefill role needs spec.scaling.prefill.gpu.count > 0',
        'spec.scaling.decode.gpu.count: Required value: Kthena runs vllm on GPUs: the decode role needs spec.scaling.decode.gpu.count > 0',
      ]);
    });

    test('fails when a prefill/decode component has no replicas: the ServingGroup gangs at least one of each', () => {
      const scaling = { prefill: { replicas: 0, gpu: { count: 1 } }, decode: { replicas: 1, gpu: { count: 1 } } };
      expect(errorsOf(disaggregatedDeployment({}, scaling))).toEqual([
        'spec.scaling.prefill.replicas: Invalid value: 0: Kthena pairs prefill with decode pods inside one ServingGroup, which gang-schedules ' +
          'at least one instance of each role (gangPolicy.minRoleReplicas); the prefill role needs at least 1 replica',
      ]);
    });

    test('accepts aggregated replicas of 0 (read as 1)', () => {
      expect(errorsOf({ spec: { scaling: { replicas: 0 } } })).toEqual([]);
    });
  });

  describe('model', () => {
    test('fails when there is no model id (a custom source), naming how each engine takes the model', () => {
      const custom = { spec: { model: { source: 'custom' as const, id: undefined } } };
      expect(errorsOf(custom)).toEqual([
        'spec.model.id: Required value: Kthena starts vllm with the model (vllm serve <model>); with a custom source, set spec.model.id to the model path or id inside the image',
      ]);
      expect(errorsOf(sglangDeployment(custom))).toEqual([
        'spec.model.id: Required value: Kthena starts sglang with the model (--model-path); with a custom source, set spec.model.id to the model path or id inside the image',
      ]);
    });

    test('fails when the served model name does not fit the ModelServer\'s model field (256 characters)', () => {
      const long = `org/${'m'.repeat(253)}`;
      expect(errorsOf({ spec: { model: { id: long } } })).toEqual([
        `spec.model.id: Invalid value: "${long}": is 257 characters long; Kthena's ModelServer names the served model in spec.model, ` +
          'at most 256 characters; set a shorter spec.model.servedName',
      ]);
      expect(errorsOf({ spec: { model: { id: long, servedName: 'short' } } })).toEqual([]);
      expect(errorsOf({ spec: { model: { servedName: 's'.repeat(257) } } })).toEqual([
        `spec.model.servedName: Invalid value: "${'s'.repeat(257)}": is 257 characters long; Kthena's ModelServer names the served model in spec.model, at most 256 characters`,
      ]);
      expect(errorsOf({ spec: { model: { servedName: 's'.repeat(256) } } })).toEqual([]);
    });

    test('fails when the image has whitespace or is blank', () => {
      expect(errorsOf({ spec: { engine: { image: 'vllm/vllm-openai:v1 --x' } } })).toEqual([
        'spec.engine.image: Invalid value: "vllm/vllm-openai:v1 --x": Kthena refuses a container image that contains whitespace',
      ]);
      expect(errorsOf({ spec: { image: '  ' } })).toEqual(['spec.image: Invalid value: "  ": Kthena refuses a container image that is blank']);
    });
  });

  describe('pod labels', () => {
    test('fails when the pod template sets a label under Kthena\'s controller prefix', () => {
      expect(errorsOf({ spec: { podTemplate: { metadata: { labels: { 'team': 'ml', 'modelserving.volcano.sh/role': 'decode' } } } } })).toEqual([
        'spec.podTemplate.metadata.labels.modelserving.volcano.sh/role: Forbidden: Kthena\'s controller owns the pod labels under modelserving.volcano.sh/ ' +
          '(the ModelServer pairs prefill and decode pods by them)',
      ]);
    });
  });

  describe('generated names', () => {
    test('fails when the name starts with a digit: Kthena\'s pod names are DNS-1035 labels', () => {
      expect(errorsOf({ name: '7b-chat' })).toEqual([
        'metadata.name: Invalid value: "7b-chat": Kthena derives the name "7b-chat-1-server-1-0" for the pods of role "server" ' +
          '(<name>-<servingGroups>-<role>-<roleReplicas>-<workerReplicas>), which must start with a lowercase letter (a DNS-1035 label); ' +
          'use a name that starts with a letter',
      ]);
    });

    test('fails when the derived name is longer than 63 characters, counting the replicas', () => {
      const name = 'q'.repeat(50);
      expect(errorsOf({ name })).toEqual([]);
      expect(errorsOf({ name, spec: { scaling: { replicas: 32 } } })).toEqual([
        `metadata.name: Invalid value: "${name}": Kthena derives the name "${name}-32-server-1-0" for the pods of role "server" ` +
          '(<name>-<servingGroups>-<role>-<roleReplicas>-<workerReplicas>), which is 64 characters long, more than the 63 allowed; use a shorter ModelDeployment name',
      ]);
    });

    test('checks each prefill/decode role', () => {
      const name = 'q'.repeat(49);
      expect(errorsOf(disaggregatedDeployment({ name }))).toEqual([]);
      const scaling = { prefill: { replicas: 10, gpu: { count: 1 } }, decode: { replicas: 10, gpu: { count: 1 } } };
      const errors = errorsOf(disaggregatedDeployment({ name }, scaling));
      expect(errors).toEqual([expect.stringContaining(`Kthena derives the name "${name}-1-prefill-10-0" for the pods of role "prefill"`)]);
      const both = errorsOf(disaggregatedDeployment({ name: `${name}xx` }));
      expect(both).toEqual([
        expect.stringContaining('for the pods of role "prefill"'),
        expect.stringContaining('for the pods of role "decode"'),
      ]);
    });
  });

  describe('gateway', () => {
    test('fails when prefill/decode serving is routed by the Gateway API Inference Extension, naming the targets that can', () => {
      expect(errorsOf(disaggregatedDeployment({ spec: { gateway: { enabled: true } } }))).toEqual([
        'spec.gateway.enabled: Forbidden: Gateway API Inference Extension routing of prefill/decode serving is not available on target kthena: ' +
          'Kthena routes it through kthena-router with the ModelRoute synthesized for the deployment; set spec.gateway.enabled to false, ' +
          'or choose a target that has it: dynamo, llmd',
      ]);
      expect(errorsOf(disaggregatedDeployment({ spec: { gateway: { enabled: false } } }))).toEqual([]);
    });

    test('pools the aggregated pods by their stable label on 8000, and no prefill/decode pods', () => {
      expect(errorsOf({ spec: { gateway: { enabled: true } } })).toEqual([]);
      expect(provider.inferencePoolTarget(toResolvedDeployment(kthenaDeployment()))).toEqual({
        selector: { 'airunway.ai/model-deployment': 'qwen' },
        targetPort: 8000,
      });
      expect(provider.inferencePoolTarget(toResolvedDeployment(disaggregatedDeployment()))).toBeUndefined();
    });
  });

  describe('launch flags', () => {
    test.each(['host', 'port', '--port', 'port=9000'])('fails when engine.args sets the networking flag %s', (key) => {
      expect(errorsOf({ spec: { engine: { args: { [key]: '9000' } } } })).toEqual([
        `spec.engine.args.${key}: Invalid value: "9000": engine arg ${JSON.stringify(key)} cannot be set for Kthena: ${PORT_REASON}`,
      ]);
    });

    test('fails when engine.extraArgs sets the port or host', () => {
      expect(errorsOf({ spec: { engine: { extraArgs: ['--port', '9000', '--host=::', '--max-num-seqs', '4'] } } })).toEqual([
        `spec.engine.extraArgs[0]: Invalid value: "--port": engine extraArg "--port" cannot be set for Kthena: ${PORT_REASON}`,
        `spec.engine.extraArgs[2]: Invalid value: "--host=::": engine extraArg "--host=::" cannot be set for Kthena: ${PORT_REASON}`,
      ]);
    });

    test.each(['model', 'served-model-name', 'served_model_name'])('fails when vLLM\'s %s is set by hand', (key) => {
      expect(errorsOf({ spec: { engine: { args: { [key]: 'x' } } } })).toEqual([
        `spec.engine.args.${key}: Invalid value: "x": engine arg ${JSON.stringify(key)} cannot be set for Kthena: ${MODEL_REASON}`,
      ]);
    });

    test('fails when SGLang\'s model path is set by hand', () => {
      expect(errorsOf(sglangDeployment({ spec: { engine: { type: 'sglang', extraArgs: ['--model-path=/models/q'] } } }))).toEqual([
        `spec.engine.extraArgs[0]: Invalid value: "--model-path=/models/q": engine extraArg "--model-path=/models/q" cannot be set for Kthena: ${MODEL_REASON}`,
      ]);
    });

    test('fails when prefill/decode KV transfer flags are set by hand, and allows them when aggregated', () => {
      const kv = { spec: { engine: { args: { 'kv-transfer-config': '{}' } } } };
      expect(errorsOf(disaggregatedDeployment(kv))).toEqual([
        'spec.engine.args.kv-transfer-config: Invalid value: "{}": engine arg "kv-transfer-config" cannot be set for Kthena: ' +
          `both roles run ${KTHENA_VLLM_KV_TRANSFER_CONFIG}, which the ModelServer's kvConnector (nixl) must match`,
      ]);
      expect(errorsOf(kv)).toEqual([]);
      const mode = { spec: { engine: { type: 'sglang' as const, args: { 'disaggregation-mode': 'prefill' } } } };
      expect(errorsOf(sglangDisaggregatedDeployment(mode))).toEqual([
        'spec.engine.args.disaggregation-mode: Invalid value: "prefill": engine arg "disaggregation-mode" cannot be set for Kthena: ' +
          'each role gets --disaggregation-mode prefill or decode from its role',
      ]);
    });

    test('fails on an invalid engine.args key', () => {
      expect(errorsOf({ spec: { engine: { args: { 'bad key': '1' } } } })).toEqual([
        'spec.engine.args.bad key: Invalid value: "bad key": invalid engine arg key "bad key": must contain only alphanumeric characters, hyphens, and underscores',
      ]);
    });
  });

  describe('parallelism', () => {
    test('fails when a role\'s tensor parallel size exceeds its GPUs', () => {
      const errors = errorsOf(disaggregatedDeployment({ spec: { engine: { args: { 'tensor-parallel-size': '2' } } } }));
      expect(errors).toEqual([expect.stringMatching(/^spec\.engine\.args\.tensor-parallel-size: Invalid value: "2": .*Kthena prefill pods/)]);
    });

    test('warns about GPUs a role leaves idle', () => {
      const md = kthenaDeployment({ spec: { resources: { gpu: { count: 2 } }, engine: { args: { 'tensor-parallel-size': '1' } } } });
      expect(errorsOf(md)).toEqual([]);
      expect(provider.warnings(toResolvedDeployment(md))).toEqual([expect.stringContaining('Kthena server pods')]);
      expect(provider.warnings(toResolvedDeployment(kthenaDeployment()))).toEqual([]);
      expect(provider.warnings(toResolvedDeployment(kthenaDeployment({ spec: { engine: { type: 'trtllm' } } })))).toEqual([]);
    });
  });

  describe('overrides', () => {
    test('accept ModelServing spec fields', () => {
      expect(overrideErrors({
        spec: {
          schedulerName: 'default-scheduler',
          recoveryPolicy: 'None',
          rolloutStrategy: { type: 'ServingGroupRollingUpdate', rollingUpdateConfiguration: { maxUnavailable: '50%', partition: 1 } },
          template: { restartGracePeriodSeconds: 30, gangPolicy: { minRoleReplicas: { server: 1 } } },
        },
      }, { spec: { scaling: { replicas: 2 } } })).toEqual([]);
      expect(overrideErrors(undefined)).toEqual([]);
    });

    test('fail when they are not an object', () => {
      expect(overrideErrors(['x'])).toEqual(['spec.provider.overrides: Invalid value: "<array>": overrides must be a JSON object']);
    });

    test('fail on a root key a ModelServing does not have', () => {
      expect(overrideErrors({ replicaz: 1 })).toEqual([
        'spec.provider.overrides.replicaz: Forbidden: a ModelServing has no root field "replicaz"; Kthena overrides merge into the ModelServing, so put fields under "spec"',
      ]);
    });

    test('fail when spec or spec.template would be replaced wholesale', () => {
      expect(overrideErrors({ spec: 'x' })).toEqual([
        'spec.provider.overrides.spec: Forbidden: overriding "spec" with a non-object is not allowed: it would replace the whole ModelServing spec',
      ]);
      expect(overrideErrors({ spec: { template: null } })).toEqual([
        'spec.provider.overrides.spec.template: Forbidden: overriding "spec.template" with a non-object is not allowed: it would replace the ServingGroup template',
      ]);
    });

    test('fail on spec.template.roles', () => {
      expect(overrideErrors({ spec: { template: { roles: [] } } })).toEqual([
        'spec.provider.overrides.spec.template.roles: Forbidden: overriding "spec.template.roles" is not allowed: the list would replace the roles the provider ' +
          'renders (engine containers, GPUs, and the pod labels the ModelServer and Service select); use spec.engine, spec.resources, spec.scaling and spec.podTemplate',
      ]);
    });

    test('fail on a gang policy Kthena\'s webhook refuses', () => {
      expect(overrideErrors({ spec: { template: { gangPolicy: 1 } } })).toEqual([
        'spec.provider.overrides.spec.template.gangPolicy: Forbidden: overriding "spec.template.gangPolicy" with a non-object is not allowed',
      ]);
      expect(overrideErrors({ spec: { template: { gangPolicy: { minRoleReplicas: [] } } } })).toEqual([
        'spec.provider.overrides.spec.template.gangPolicy.minRoleReplicas: Forbidden: overriding "minRoleReplicas" with a non-object is not allowed',
      ]);
      expect(overrideErrors({ spec: { template: { gangPolicy: {} } } })).toEqual([]);
      const minRoleReplicas = { leader: 1, prefill: 2, decode: 2 };
      const md = disaggregatedDeployment(withOverrides({ spec: { template: { gangPolicy: { minRoleReplicas } } } }));
      expect(errorsOf(md)).toEqual([
        'spec.provider.overrides.spec.template.gangPolicy.minRoleReplicas.leader: Invalid value: "leader": role leader does not exist in the ServingGroup; its roles are prefill, decode',
        'spec.provider.overrides.spec.template.gangPolicy.minRoleReplicas.prefill: Invalid value: 2: minRoleReplicas of role prefill must be an integer from 0 to its replicas ' +
          '(1, spec.scaling.prefill.replicas)',
      ]);
      expect(overrideErrors({ spec: { template: { gangPolicy: { minRoleReplicas: { server: -1 } } } } })).toHaveLength(1);
      expect(overrideErrors({ spec: { template: { gangPolicy: { minRoleReplicas: { server: '1' } } } } })).toHaveLength(1);
    });

    test('fail on recoveryPolicy ServingGroupRecreate with RoleRollingUpdate', () => {
      expect(overrideErrors({ spec: { recoveryPolicy: 'ServingGroupRecreate', rolloutStrategy: { type: 'RoleRollingUpdate' } } })).toEqual([
        'spec.provider.overrides.spec.rolloutStrategy.type: Invalid value: "RoleRollingUpdate": Kthena refuses recoveryPolicy ServingGroupRecreate with ' +
          'rolloutStrategy.type RoleRollingUpdate: recreating the whole ServingGroup on a failure defeats updating one role at a time',
      ]);
      expect(overrideErrors({ spec: { recoveryPolicy: 'ServingGroupRecreate' } })).toEqual([]);
      expect(overrideErrors({ spec: { rolloutStrategy: { type: 'RoleRollingUpdate' } } })).toEqual([]);
    });

    test('fail on a rollingUpdateConfiguration under RoleRollingUpdate, or that is not an object', () => {
      expect(overrideErrors({ spec: { rolloutStrategy: { type: 'RoleRollingUpdate', rollingUpdateConfiguration: {} } } })).toEqual([
        'spec.provider.overrides.spec.rolloutStrategy.rollingUpdateConfiguration: Forbidden: rollingUpdateConfiguration is only valid when rolloutStrategy.type is ServingGroupRollingUpdate',
      ]);
      expect(overrideErrors({ spec: { rolloutStrategy: { rollingUpdateConfiguration: 5 } } })).toEqual([
        'spec.provider.overrides.spec.rolloutStrategy.rollingUpdateConfiguration: Forbidden: overriding "rollingUpdateConfiguration" with a non-object is not allowed',
      ]);
      expect(overrideErrors({ spec: { rolloutStrategy: 'fast' } })).toEqual([
        'spec.provider.overrides.spec.rolloutStrategy: Forbidden: overriding "spec.rolloutStrategy" with a non-object is not allowed',
      ]);
    });

    test.each([
      ['maxUnavailable', '150%', 'must be a valid percent value (0-100)'],
      ['maxUnavailable', 'half', 'must be an integer or a percentage such as "10%"'],
      ['maxUnavailable', 1.5, 'must be an integer or a percentage such as "10%"'],
      ['maxUnavailable', true, 'must be an integer or a percentage such as "10%"'],
      ['partition', -1, 'must be a non-negative integer'],
    ])('fail on rollingUpdateConfiguration.%s %p', (field, value, message) => {
      expect(overrideErrors({ spec: { rolloutStrategy: { rollingUpdateConfiguration: { [field]: value } } } })).toEqual([
        `spec.provider.overrides.spec.rolloutStrategy.rollingUpdateConfiguration.${field}: Invalid value: ${JSON.stringify(value)}: ${message}`,
      ]);
    });

    test('fail on a maxUnavailable that comes to 0 ServingGroups', () => {
      const path = 'spec.provider.overrides.spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable';
      expect(overrideErrors({ spec: { rolloutStrategy: { rollingUpdateConfiguration: { maxUnavailable: '10%' } } } }, { spec: { scaling: { replicas: 5 } } })).toEqual([
        `${path}: Invalid value: "10%": maxUnavailable cannot be 0 (it comes to 0 of the 5 ServingGroup(s)): an update could never take a group down`,
      ]);
      expect(overrideErrors({ spec: { rolloutStrategy: { rollingUpdateConfiguration: { maxUnavailable: 0 } } } })).toHaveLength(1);
      expect(overrideErrors({ spec: { rolloutStrategy: { rollingUpdateConfiguration: { maxUnavailable: '20%', partition: '10%' } } } }, { spec: { scaling: { replicas: 5 } } })).toEqual([]);
    });
  });
});

describe('KthenaProvider props', () => {
  test('fails when the scheduler name is not a DNS subdomain', () => {
    expect(() => new KthenaProvider({ schedulerName: 'Volcano Scheduler' })).toThrow(
      'KthenaProvider: \'schedulerName\' ("Volcano Scheduler") must be a DNS subdomain (lowercase letters, digits, "-" and "."), as pod scheduler names are',
    );
  });

  test('fails when a default image is blank or has whitespace', () => {
    expect(() => new KthenaProvider({ vllmImage: 'vllm/vllm-openai:v1 ' })).toThrow(
      'KthenaProvider: \'vllmImage\' ("vllm/vllm-openai:v1 ") contains whitespace; Kthena refuses such container images',
    );
    expect(() => new KthenaProvider({ sglangImage: '' })).toThrow('KthenaProvider: \'sglangImage\' ("") is blank; Kthena refuses such container images');
  });
});

/** Every error path reports through `validate` on the public view too (what the pipeline calls). */
test('validate reads the public view of a deployment', () => {
  const md: ResolvedModelDeployment = kthenaDeployment({ name: '9lives' });
  expect(provider.validate(toResolvedDeployment(md)).map((e) => e.path)).toEqual(['metadata.name']);
});
