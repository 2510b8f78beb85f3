import { Duration } from 'cdk8s';
import { chart, errorsOf, manifestOf, upstreamViolations, vllmTemplate } from './support';
import {
  KthenaIntOrPercent,
  KthenaModelServing,
  KthenaModelServingProps,
  KthenaPodTemplate,
  KthenaRecoveryPolicy,
  KthenaRoleOptions,
  KthenaRolloutStrategy,
} from '../../src/kthena';

function role(name: string, overrides: Partial<KthenaRoleOptions> = {}): KthenaRoleOptions {
  return { name, entryTemplate: vllmTemplate(), ...overrides };
}

function servingErrors(props: KthenaModelServingProps): string[] {
  const c = chart();
  new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, ...props });
  return errorsOf(c);
}

const OWN = (role_: string, entry: boolean) => ({
  'inference.cdk8s.io/kthena-model-serving': 'qwen',
  'inference.cdk8s.io/kthena-role': role_,
  ...(entry && { 'inference.cdk8s.io/kthena-entry': 'true' }),
});

describe('KthenaModelServing', () => {
  test('renders an aggregated ModelServing: ServingGroups of one role, pods labelled for selection', () => {
    const c = chart();
    const serving = new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen', namespace: 'ml' }, replicas: 2, roles: [role('server')] });
    const ms = manifestOf(c, 'ModelServing');
    expect(ms.metadata).toEqual({ name: 'qwen', namespace: 'ml' });
    expect(ms.spec.replicas).toBe(2);
    expect(Object.keys(ms.spec)).toEqual(['replicas', 'template']);
    expect(ms.spec.template.roles).toEqual([{
      name: 'server',
      replicas: 1,
      workerReplicas: 0,
      entryTemplate: { metadata: { labels: OWN('server', true) }, spec: expect.objectContaining({ containers: [expect.objectContaining({ name: 'vllm' })] }) },
    }]);
    expect(serving.name).toBe('qwen');
    expect(serving.roleNames).toEqual(['server']);
    expect(serving.entryPodLabels()).toEqual({ 'inference.cdk8s.io/kthena-model-serving': 'qwen', 'inference.cdk8s.io/kthena-entry': 'true' });
    expect(serving.entryPodLabels('server')).toEqual(OWN('server', true));
    expect(serving.warnings).toEqual([]);
  });

  test('renders a 2P4D ServingGroup with a gang minimum, scheduler, recovery, grace period and a staged rollout', () => {
    const c = chart();
    new KthenaModelServing(c, 'ms', {
      metadata: { name: 'qwen' },
      replicas: 2,
      roles: [role('prefill', { replicas: 2 }), role('decode', { replicas: 4 })],
      gangPolicy: { minRoleReplicas: { prefill: 1, decode: 1 } },
      schedulerName: 'volcano',
      recoveryPolicy: KthenaRecoveryPolicy.SERVING_GROUP_RECREATE,
      restartGracePeriod: Duration.minutes(1),
      rolloutStrategy: KthenaRolloutStrategy.servingGroupRollingUpdate({
        maxUnavailable: KthenaIntOrPercent.percent(50),
        partition: KthenaIntOrPercent.count(0),
      }),
    });
    const spec = manifestOf(c, 'ModelServing').spec;
    expect(spec.schedulerName).toBe('volcano');
    expect(spec.recoveryPolicy).toBe('ServingGroupRecreate');
    expect(spec.rolloutStrategy).toEqual({ type: 'ServingGroupRollingUpdate', rollingUpdateConfiguration: { maxUnavailable: '50%', partition: 0 } });
    expect(spec.template.restartGracePeriodSeconds).toBe(60);
    expect(spec.template.gangPolicy).toEqual({ minRoleReplicas: { prefill: 1, decode: 1 } });
    expect(spec.template.roles.map((r: any) => [r.name, r.replicas, r.entryTemplate.metadata.labels])).toEqual([
      ['prefill', 2, OWN('prefill', true)],
      ['decode', 4, OWN('decode', true)],
    ]);
  });

  test('renders a multi-node role: worker pods carry the ModelServing and role labels but not the entry label', () => {
    const c = chart();
    new KthenaModelServing(c, 'ms', {
      metadata: { name: 'qwen' },
      roles: [role('leader', { workerReplicas: 3, workerTemplate: vllmTemplate({ name: 'ray-worker' }) })],
    });
    const r = manifestOf(c, 'ModelServing').spec.template.roles[0];
    expect(r.workerReplicas).toBe(3);
    expect(r.workerTemplate.metadata.labels).toEqual(OWN('leader', false));
    expect(r.workerTemplate.spec.containers[0].name).toBe('ray-worker');
  });

  test('renders a role-by-role rollout with per-role settings', () => {
    const c = chart();
    new KthenaModelServing(c, 'ms', {
      metadata: { name: 'qwen' },
      roles: [role('decode', { replicas: 4, maxUnavailable: KthenaIntOrPercent.percent(25), partition: KthenaIntOrPercent.count(1) })],
      rolloutStrategy: KthenaRolloutStrategy.roleRollingUpdate(),
      recoveryPolicy: KthenaRecoveryPolicy.ROLE_RECREATE,
    });
    const spec = manifestOf(c, 'ModelServing').spec;
    expect(spec.rolloutStrategy).toEqual({ type: 'RoleRollingUpdate' });
    expect(spec.template.roles[0]).toMatchObject({ maxUnavailable: '25%', partition: 1 });
    expect(KthenaRolloutStrategy.roleRollingUpdate().isRoleRollingUpdate).toBe(true);
    expect(KthenaRolloutStrategy.servingGroupRollingUpdate().strategyType).toBe('ServingGroupRollingUpdate');
  });

  test('includes roles and containers added after construction', () => {
    const c = chart();
    const entry = new KthenaPodTemplate();
    const serving = new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' } });
    serving.addRole({ name: 'server', entryTemplate: entry });
    entry.addContainer({ name: 'vllm', image: 'vllm/vllm-openai:v0.11.0', resources: {} });
    const roles = manifestOf(c, 'ModelServing').spec.template.roles;
    expect(roles.map((r: any) => r.entryTemplate.spec.containers[0].name)).toEqual(['vllm']);
    expect(serving.hasRole('server')).toBe(true);
    expect(serving.hasRole('decode')).toBe(false);
  });

  test('recognises its instances across copies of the library, and imports by name', () => {
    const c = chart();
    const serving = new KthenaModelServing(c, 'ms', { roles: [role('server')] });
    const imported = KthenaModelServing.fromModelServingName(c, 'other', 'llama');
    expect(KthenaModelServing.isKthenaModelServing(serving)).toBe(true);
    expect(KthenaModelServing.isKthenaModelServing(imported)).toBe(false);
    expect(KthenaModelServing.isKthenaModelServing(undefined)).toBe(false);
    expect(imported.name).toBe('llama');
  });

  describe('validation', () => {
    test('fails when there is no role', () => {
      expect(servingErrors({})).toEqual(['spec.template.roles: Required value: a ModelServing needs at least one role (props.roles or addRole)']);
    });

    test('fails when there are more than 4 roles (also refused by the CRD)', () => {
      const props = { roles: ['a', 'b', 'c', 'd', 'e'].map((n) => role(n)) };
      expect(servingErrors(props)).toEqual(['spec.template.roles: Invalid value: "5 roles": Kthena allows at most 4 roles in a ServingGroup']);
      const c = chart();
      new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, ...props });
      expect(upstreamViolations(c).join('\n')).toContain('spec.template.roles');
    });

    test('fails when two roles share a name (also refused by the CRD\'s CEL rule)', () => {
      expect(servingErrors({ roles: [role('decode'), role('decode')] })).toEqual([
        'spec.template.roles[1].name: Invalid value: "decode": duplicates spec.template.roles[0].name: role names are unique in a ModelServing',
      ]);
      const c = chart();
      new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, roles: [role('decode'), role('decode')] });
      expect(upstreamViolations(c).join('\n')).toContain('roles name must be unique');
    });

    test('fails when a role name is longer than 12 characters or not a DNS-1035 label', () => {
      expect(servingErrors({ roles: [role('prefillworker'), role('Decode'), role('1p')] })).toEqual([
        'spec.template.roles[0].name: Invalid value: "prefillworker": role name is 13 characters long, more than the 12 allowed',
        'spec.template.roles[1].name: Invalid value: "Decode": role name must consist of lowercase letters, digits and \'-\', start with a letter and end with a letter or digit (a DNS-1035 label)',
        'spec.template.roles[2].name: Invalid value: "1p": role name must consist of lowercase letters, digits and \'-\', start with a letter and end with a letter or digit (a DNS-1035 label)',
      ]);
      const c = chart();
      new KthenaModelServing(c, 'ms', { metadata: { name: 'qwen' }, roles: [role('prefillworker')] });
      expect(upstreamViolations(c).join('\n')).toContain('spec.template.roles[0].name');
    });

    test('fails when replica counts are negative or fractional', () => {
      expect(servingErrors({ replicas: -1, roles: [role('server', { replicas: 1.5, workerReplicas: -2 })] })).toEqual([
        'spec.replicas: Invalid value: -1: must be a whole number of at least 0: ServingGroups',
        'spec.template.roles[0].replicas: Invalid value: 1.5: must be a whole number of at least 0: instances of the role per ServingGroup',
        'spec.template.roles[0].workerReplicas: Invalid value: -2: must be a whole number of at least 0: worker pods per role instance',
        expect.stringContaining('metadata.name: Invalid value: "qwen": Kthena derives the name "qwen--1-server-1.5--2"'),
      ]);
    });

    test('fails when a role has worker replicas but no worker template', () => {
      expect(servingErrors({ roles: [role('leader', { workerReplicas: 2 })] })).toEqual([
        'spec.template.roles[0].workerTemplate: Required value: a role with workerReplicas (2) needs a workerTemplate for those pods',
      ]);
    });

    test('fails when the names Kthena derives for the pods are not DNS-1035 labels', () => {
      const c = chart();
      new KthenaModelServing(c, 'ms', { metadata: { name: 'a'.repeat(50) }, replicas: 10, roles: [role('decode')] });
      expect(errorsOf(c)).toEqual([
        `metadata.name: Invalid value: "${'a'.repeat(50)}": Kthena derives the name "${'a'.repeat(50)}-10-decode-1-0" for the pods of role "decode" ` +
          '(<name>-<replicas>-<role>-<role replicas>-<worker replicas>), which is 64 characters long, more than the 63 allowed; use a shorter name or role name',
      ]);
      const d = chart();
      new KthenaModelServing(d, 'ms', { metadata: { name: '7b-model' }, roles: [role('decode')] });
      expect(errorsOf(d)).toEqual([
        'metadata.name: Invalid value: "7b-model": Kthena derives the name "7b-model-1-decode-1-0" for the pods of role "decode" ' +
          '(<name>-<replicas>-<role>-<role replicas>-<worker replicas>), which must start with a lowercase letter (a DNS-1035 label); use a name that starts with a letter',
      ]);
    });

    test('fails when gang minimums name no role or exceed the role\'s replicas', () => {
      expect(servingErrors({
        roles: [role('prefill', { replicas: 2 }), role('decode')],
        gangPolicy: { minRoleReplicas: { prefill: 3, decode: -1, router: 1 } },
      })).toEqual([
        'spec.template.gangPolicy.minRoleReplicas.prefill: Invalid value: 3: minRoleReplicas of role prefill must be an integer from 0 to its replicas ' +
          '(2, spec.template.roles[0].replicas)',
        'spec.template.gangPolicy.minRoleReplicas.decode: Invalid value: -1: minRoleReplicas of role decode must be an integer from 0 to its replicas ' +
          '(1, spec.template.roles[1].replicas)',
        'spec.template.gangPolicy.minRoleReplicas.router: Invalid value: "router": role router does not exist in the ServingGroup; its roles are prefill, decode',
      ]);
    });

    test('fails when ServingGroupRecreate recovery is combined with a role-by-role rollout', () => {
      expect(servingErrors({
        roles: [role('server')],
        rolloutStrategy: KthenaRolloutStrategy.roleRollingUpdate(),
        recoveryPolicy: KthenaRecoveryPolicy.SERVING_GROUP_RECREATE,
      })).toEqual([
        'spec.rolloutStrategy.type: Invalid value: "RoleRollingUpdate": Kthena refuses recoveryPolicy ServingGroupRecreate with rolloutStrategy.type ' +
          'RoleRollingUpdate: recreating the whole ServingGroup on a failure defeats updating one role at a time',
      ]);
    });

    test('fails when the group rollout settings are out of range or make no progress', () => {
      expect(servingErrors({
        replicas: 2,
        roles: [role('server')],
        rolloutStrategy: KthenaRolloutStrategy.servingGroupRollingUpdate({
          maxUnavailable: KthenaIntOrPercent.percent(10),
          partition: KthenaIntOrPercent.percent(120),
        }),
      })).toEqual([
        'spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: "10%": maxUnavailable cannot be 0 (it comes to 0 of the 2 ServingGroup(s)): ' +
          'an update could never take a group down',
        'spec.rolloutStrategy.rollingUpdateConfiguration.partition: Invalid value: "120%": must be a valid percent value (0-100)',
      ]);
      expect(servingErrors({
        roles: [role('server')],
        rolloutStrategy: KthenaRolloutStrategy.servingGroupRollingUpdate({ maxUnavailable: KthenaIntOrPercent.count(-1) }),
      })).toEqual(['spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable: Invalid value: -1: must be a non-negative integer']);
    });

    test('fails when per-role rollout settings are given without a role-by-role rollout', () => {
      expect(servingErrors({
        roles: [role('server', { maxUnavailable: KthenaIntOrPercent.count(1), partition: KthenaIntOrPercent.count(1) })],
      })).toEqual([
        'spec.template.roles[0].partition: Forbidden: a role partition is only allowed with KthenaRolloutStrategy.roleRollingUpdate()',
        'spec.template.roles[0].maxUnavailable: Forbidden: a role maxUnavailable only takes effect with KthenaRolloutStrategy.roleRollingUpdate()',
      ]);
    });

    test('fails when a role\'s maxUnavailable comes to 0 or to more than its replicas', () => {
      expect(servingErrors({
        roles: [
          role('prefill', { replicas: 3, maxUnavailable: KthenaIntOrPercent.percent(20) }),
          role('decode', { replicas: 2, maxUnavailable: KthenaIntOrPercent.count(3), partition: KthenaIntOrPercent.percent(101) }),
        ],
        rolloutStrategy: KthenaRolloutStrategy.roleRollingUpdate(),
      })).toEqual([
        'spec.template.roles[0].maxUnavailable: Invalid value: "20%": comes to 0 of the role\'s 3 replicas (percentages round down), so no instance could be updated',
        'spec.template.roles[1].partition: Invalid value: "101%": must be a valid percent value (0-100)',
        'spec.template.roles[1].maxUnavailable: Invalid value: 3: comes to 3, more than the role\'s 2 replicas',
      ]);
    });
  });
});
