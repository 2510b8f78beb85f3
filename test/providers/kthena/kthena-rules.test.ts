/*
 * Kthena's rules are written once, in src/kthena/, and reached from both faces: the L2 constructs
 * report them at the Kthena object's fields, the Kthena provider at the ModelDeployment's. Each
 * test breaks one rule through both and checks that each message names its own reader's field.
 */
import { disaggregatedDeployment, kthenaDeployment } from './fixtures';
import {
  KthenaIntOrPercent,
  KthenaModelRoute,
  KthenaModelServer,
  KthenaModelServing,
  KthenaInferenceEngine,
  KthenaPodTemplate,
  KthenaRecoveryPolicy,
  KthenaRolloutStrategy,
  KthenaRouteTarget,
} from '../../../src/kthena';
import { KthenaProvider } from '../../../src/providers/kthena';
import { chart, errorsOf as constructErrorsOf, vllmTemplate } from '../../kthena/support';
import { translatorHarness } from '../../support/translator-harness';

const { errorsOf: providerErrorsOf, withOverrides } = translatorHarness(new KthenaProvider(), kthenaDeployment);

function servingErrors(props: ConstructorParameters<typeof KthenaModelServing>[2]): string[] {
  const c = chart();
  new KthenaModelServing(c, 'ms', { metadata: { name: 'llm' }, ...props });
  return constructErrorsOf(c);
}

function overrideErrors(overrides: unknown): string[] {
  return providerErrorsOf(withOverrides(overrides));
}

const SERVED_MODEL_RULE = 'Kthena\'s ModelServer names the served model in spec.model, at most 256 characters';

describe('one rule of Kthena, two readers', () => {
  test('fails when the served model is longer than 256 characters, at spec.model and at spec.model.servedName', () => {
    const model = 'm'.repeat(257);
    const c = chart();
    new KthenaModelServer(c, 'server', { engine: KthenaInferenceEngine.VLLM, model, matchLabels: { app: 'llm' } });
    expect(constructErrorsOf(c)).toEqual([`spec.model: Invalid value: "${model}": is 257 characters long; ${SERVED_MODEL_RULE}`]);
    expect(providerErrorsOf({ spec: { model: { servedName: model } } })).toEqual([
      `spec.model.servedName: Invalid value: "${model}": is 257 characters long; ${SERVED_MODEL_RULE}`,
    ]);
  });

  test('fails when a route lists more than 10 LoRA adapters, at spec.loraAdapters and at the LoRA annotation', () => {
    const names = Array.from({ length: 11 }, (_, i) => `adapter-${i}`);
    const c = chart();
    new KthenaModelRoute(c, 'route', { modelName: 'llm', loraAdapters: names, rules: [{ targets: [KthenaRouteTarget.modelServerName('llm')] }] });
    const rule = 'Kthena\'s ModelRoute routes at most 10 LoRA adapters (spec.loraAdapters)';
    expect(constructErrorsOf(c)).toEqual([`spec.loraAdapters: Invalid value: "11 adapters": ${rule}`]);
    const adapters = names.map((name) => ({ name, source: `hf://org/${name}` }));
    const errors = providerErrorsOf({ annotations: { 'inference.cdk8s.io/lora': JSON.stringify({ adapters }) } });
    expect(errors).toEqual([
      `metadata.annotations["inference.cdk8s.io/lora"].adapters: Invalid value: "11 adapters": ${rule}; serve at most 10 on Kthena, or use the vllm or llmd provider (up to 32)`,
    ]);
  });

  test('fails when a pod label is one of Kthena\'s controller, at the pod template of each', () => {
    const c = chart();
    const template = vllmTemplate();
    template.addLabel('modelserving.volcano.sh/group-name', 'g');
    new KthenaModelServing(c, 'ms', { metadata: { name: 'llm' }, roles: [{ name: 'server', entryTemplate: template }] });
    const rule = 'Forbidden: Kthena\'s controller owns the pod labels under modelserving.volcano.sh/ (the ModelServer pairs prefill and decode pods by them)';
    expect(constructErrorsOf(c)).toEqual([`spec.template.roles[0].entryTemplate.metadata.labels.modelserving.volcano.sh/group-name: ${rule}`]);
    expect(providerErrorsOf({ spec: { podTemplate: { metadata: { labels: { 'modelserving.volcano.sh/group-name': 'g' } } } } })).toEqual([
      `spec.podTemplate.metadata.labels.modelserving.volcano.sh/group-name: ${rule}`,
    ]);
  });

  test('fails when an image has whitespace, at the container and at spec.engine.image', () => {
    const c = chart();
    new KthenaModelServing(c, 'ms', {
      metadata: { name: 'llm' },
      roles: [{ name: 'server', entryTemplate: KthenaPodTemplate.fromPodSpec({ containers: [{ name: 'vllm', image: 'vllm x' }] }) }],
    });
    const rule = 'Invalid value: "vllm x": Kthena refuses a container image that contains whitespace';
    expect(constructErrorsOf(c)).toEqual([`spec.template.roles[0].entryTemplate.spec.containers[0].image: ${rule}`]);
    expect(providerErrorsOf({ spec: { engine: { image: 'vllm x' } } })).toEqual([`spec.engine.image: ${rule}`]);
  });

  test('fails when a generated pod name is too long, each message in its reader\'s terms', () => {
    const name = 'a'.repeat(50);
    expect(servingErrors({ metadata: { name }, replicas: 10, roles: [{ name: 'server', entryTemplate: vllmTemplate() }] })).toEqual([
      `metadata.name: Invalid value: "${name}": Kthena derives the name "${name}-10-server-1-0" for the pods of role "server" ` +
        '(<name>-<replicas>-<role>-<role replicas>-<worker replicas>), which is 64 characters long, more than the 63 allowed; use a shorter name or role name',
    ]);
    expect(providerErrorsOf({ name, spec: { scaling: { replicas: 10 } } })).toContain(
      `metadata.name: Invalid value: "${name}": Kthena derives the name "${name}-10-server-1-0" for the pods of role "server" ` +
        '(<name>-<servingGroups>-<role>-<roleReplicas>-<workerReplicas>), which is 64 characters long, more than the 63 allowed; use a shorter ModelDeployment name',
    );
  });

  test('fails when a gang minimum exceeds its role\'s replicas, naming where each sets the replicas', () => {
    expect(servingErrors({ roles: [{ name: 'server', entryTemplate: vllmTemplate() }], gangPolicy: { minRoleReplicas: { server: 2 } } })).toEqual([
      'spec.template.gangPolicy.minRoleReplicas.server: Invalid value: 2: minRoleReplicas of role server must be an integer from 0 to its replicas ' +
        '(1, spec.template.roles[0].replicas)',
    ]);
    const md = disaggregatedDeployment(withOverrides({ spec: { template: { gangPolicy: { minRoleReplicas: { prefill: 2 } } } } }));
    expect(providerErrorsOf(md)).toEqual([
      'spec.provider.overrides.spec.template.gangPolicy.minRoleReplicas.prefill: Invalid value: 2: minRoleReplicas of role prefill must be an integer ' +
        'from 0 to its replicas (1, spec.scaling.prefill.replicas)',
    ]);
  });

  test('fails when ServingGroupRecreate recovery meets a role-by-role rollout, at each rollout type', () => {
    const rule = 'Invalid value: "RoleRollingUpdate": Kthena refuses recoveryPolicy ServingGroupRecreate with rolloutStrategy.type RoleRollingUpdate: ' +
      'recreating the whole ServingGroup on a failure defeats updating one role at a time';
    expect(servingErrors({
      roles: [{ name: 'server', entryTemplate: vllmTemplate() }],
      rolloutStrategy: KthenaRolloutStrategy.roleRollingUpdate(),
      recoveryPolicy: KthenaRecoveryPolicy.SERVING_GROUP_RECREATE,
    })).toEqual([`spec.rolloutStrategy.type: ${rule}`]);
    expect(overrideErrors({ spec: { recoveryPolicy: 'ServingGroupRecreate', rolloutStrategy: { type: 'RoleRollingUpdate' } } })).toEqual([
      `spec.provider.overrides.spec.rolloutStrategy.type: ${rule}`,
    ]);
  });

  test('fails when the ServingGroup maxUnavailable comes to 0, or a partition is no percentage, at each rolling update', () => {
    expect(servingErrors({
      replicas: 2,
      roles: [{ name: 'server', entryTemplate: vllmTemplate() }],
      rolloutStrategy: KthenaRolloutStrategy.servingGroupRollingUpdate({
        maxUnavailable: KthenaIntOrPercent.percent(10),
        partition: KthenaIntOrPercent.percent(101),
      }),
    })).toEqual([
      'spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: "10%": maxUnavailable cannot be 0 (it comes to 0 of the 2 ServingGroup(s)): ' +
        'an update could never take a group down',
      'spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: "101%": must be a valid percent value (0-100)',
    ]);
    expect(overrideErrors({ spec: { rolloutStrategy: { rollingUpdateConfiguration: { maxUnavailable: '10%', partition: '101%' } } } })).toEqual([
      'spec.provider.overrides.spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: "10%": maxUnavailable cannot be 0 ' +
        '(it comes to 0 of the 1 ServingGroup(s)): an update could never take a group down',
      'spec.provider.overrides.spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: "101%": must be a valid percent value (0-100)',
    ]);
  });
});
