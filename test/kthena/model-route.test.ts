import { chart, errorsOf, manifestOf, upstreamViolations } from './support';
import {
  KthenaInferenceEngine,
  KthenaModelRoute,
  KthenaModelRouteProps,
  KthenaModelServer,
  KthenaRateLimitUnit,
  KthenaRouteTarget,
  KthenaStringMatch,
} from '../../src/kthena';

const TO_QWEN = [KthenaRouteTarget.modelServerName('qwen')];

function routeErrors(props: KthenaModelRouteProps): string[] {
  const c = chart();
  new KthenaModelRoute(c, 'route', { metadata: { name: 'qwen' }, ...props });
  return errorsOf(c);
}

function rawRouteViolations(props: KthenaModelRouteProps): string {
  const c = chart();
  new KthenaModelRoute(c, 'route', { metadata: { name: 'qwen' }, ...props });
  return upstreamViolations(c).join('\n');
}

describe('KthenaModelRoute', () => {
  test('routes a model through weighted rules to ModelServer objects, names and external providers', () => {
    const c = chart();
    const a100 = new KthenaModelServer(c, 'a100', { metadata: { name: 'qwen-a100' }, engine: KthenaInferenceEngine.VLLM, matchLabels: { gpu: 'a100' } });
    const route = new KthenaModelRoute(c, 'route', {
      metadata: { name: 'qwen' },
      modelName: 'qwen3-8b',
      rules: [{
        name: 'premium',
        modelMatch: { headers: { 'x-tier': KthenaStringMatch.exact('premium') }, uri: KthenaStringMatch.prefix('/v1/chat') },
        targets: [KthenaRouteTarget.modelServerName('qwen-h100')],
      }],
    });
    route.addRule({
      name: 'default',
      targets: [
        KthenaRouteTarget.modelServer(a100, { weight: 80 }),
        KthenaRouteTarget.externalModelProvider('openai', { weight: 20 }),
      ],
    });
    route.addParentRef({ name: 'kthena-gateway', parentNamespace: 'kthena-system', sectionName: 'http', port: 80 });
    const spec = manifestOf(c, 'ModelRoute').spec;
    expect(spec).toEqual({
      modelName: 'qwen3-8b',
      parentRefs: [{ name: 'kthena-gateway', namespace: 'kthena-system', sectionName: 'http', port: 80 }],
      rules: [
        {
          name: 'premium',
          modelMatch: { headers: { 'x-tier': { exact: 'premium' } }, uri: { prefix: '/v1/chat' } },
          targetModels: [{ modelServerName: 'qwen-h100' }],
        },
        {
          name: 'default',
          targetModels: [{ modelServerName: 'qwen-a100', weight: 80 }, { externalModelProviderName: 'openai', weight: 20 }],
        },
      ],
    });
  });

  test('routes LoRA adapters, with or without a base model name, and limits tokens', () => {
    const c = chart();
    const route = new KthenaModelRoute(c, 'route', {
      metadata: { name: 'adapters' },
      loraAdapters: ['sql-lora'],
      rules: [{ modelMatch: { model: 'sql-lora' }, targets: TO_QWEN }],
      rateLimit: { inputTokensPerUnit: 1000, outputTokensPerUnit: 500, unit: KthenaRateLimitUnit.MINUTE, redisAddress: 'redis.kthena-system:6379' },
    });
    route.addLoraAdapter('chat-lora');
    const spec = manifestOf(c, 'ModelRoute').spec;
    expect(spec.modelName).toBeUndefined();
    expect(spec.loraAdapters).toEqual(['sql-lora', 'chat-lora']);
    expect(spec.rules[0].modelMatch).toEqual({ body: { model: 'sql-lora' } });
    expect(spec.rateLimit).toEqual({ inputTokensPerUnit: 1000, outputTokensPerUnit: 500, unit: 'minute', global: { redis: { address: 'redis.kthena-system:6379' } } });
  });

  test('writes the rate limit unit even when it is the default (the CRD requires it)', () => {
    const c = chart();
    new KthenaModelRoute(c, 'route', { metadata: { name: 'r' }, modelName: 'm', rules: [{ targets: TO_QWEN }], rateLimit: { outputTokensPerUnit: 10 } });
    expect(manifestOf(c, 'ModelRoute').spec.rateLimit).toEqual({ outputTokensPerUnit: 10, unit: 'second' });
  });

  describe('validation', () => {
    test('fails when there is neither a model name nor a LoRA adapter (also the CRD\'s CEL rule)', () => {
      expect(routeErrors({ rules: [{ targets: TO_QWEN }] })).toEqual([
        'spec.modelName: Required value: a ModelRoute needs a modelName or at least one LoRA adapter (loraAdapters, addLoraAdapter)',
      ]);
      expect(rawRouteViolations({ modelName: '', rules: [{ targets: TO_QWEN }] })).toContain('ModelName and LoraAdapters cannot both be empty');
    });

    test('fails when there is no rule, or more than 16 (also refused by the CRD)', () => {
      expect(routeErrors({ modelName: 'm' })).toEqual(['spec.rules: Required value: a ModelRoute needs at least one rule (rules, addRule)']);
      const rules = Array.from({ length: 17 }, () => ({ targets: TO_QWEN }));
      expect(routeErrors({ modelName: 'm', rules })).toEqual(['spec.rules: Invalid value: "17 rules": Kthena allows at most 16 rules']);
      expect(rawRouteViolations({ modelName: 'm', rules })).toContain('spec.rules');
    });

    test('fails when a rule has no target, or more than 16', () => {
      const many = Array.from({ length: 17 }, (_, i) => KthenaRouteTarget.modelServerName(`s${i}`));
      expect(routeErrors({ modelName: 'm', rules: [{ targets: [] }, { targets: many }] })).toEqual([
        'spec.rules[0].targetModels: Required value: a rule needs at least one target',
        'spec.rules[1].targetModels: Invalid value: "17 targets": Kthena allows at most 16 targets per rule',
      ]);
    });

    test('fails when a weight is outside 0 to 100 (also refused by the CRD)', () => {
      const props = { modelName: 'm', rules: [{ targets: [KthenaRouteTarget.modelServerName('a', { weight: 101 }), KthenaRouteTarget.modelServerName('b', { weight: 2.5 })] }] };
      expect(routeErrors(props)).toEqual([
        'spec.rules[0].targetModels[0].weight: Invalid value: 101: must be a whole number from 0 to 100: a share of the rule\'s traffic',
        'spec.rules[0].targetModels[1].weight: Invalid value: 2.5: must be a whole number from 0 to 100: a share of the rule\'s traffic',
      ]);
      expect(rawRouteViolations(props)).toContain('spec.rules[0].targetModels[0].weight');
    });

    test('fails when a target names nothing (the CRD\'s exactly-one-name rule)', () => {
      const props = { modelName: 'm', rules: [{ targets: [KthenaRouteTarget.modelServerName(''), KthenaRouteTarget.externalModelProvider('')] }] };
      expect(routeErrors(props)).toEqual([
        'spec.rules[0].targetModels[0].modelServerName: Invalid value: "": must not be empty',
        'spec.rules[0].targetModels[1].externalModelProviderName: Invalid value: "": must not be empty',
      ]);
      expect(rawRouteViolations(props)).toContain('exactly one of modelServerName or externalModelProviderName must be set');
    });

    test('fails when there are more than 10 LoRA adapters, or an empty or repeated one', () => {
      const adapters = Array.from({ length: 11 }, (_, i) => `lora-${i}`);
      expect(routeErrors({ loraAdapters: adapters, rules: [{ targets: TO_QWEN }] })).toEqual([
        'spec.loraAdapters: Invalid value: "11 adapters": Kthena\'s ModelRoute routes at most 10 LoRA adapters (spec.loraAdapters)',
      ]);
      expect(rawRouteViolations({ loraAdapters: adapters, rules: [{ targets: TO_QWEN }] })).toContain('spec.loraAdapters');
      expect(routeErrors({ loraAdapters: ['a', '', 'a'], rules: [{ targets: TO_QWEN }] })).toEqual([
        'spec.loraAdapters[1]: Invalid value: "": must not be empty',
        'spec.loraAdapters[2]: Invalid value: "a": is listed twice',
      ]);
    });

    test('fails when a rate limit limits nothing, counts are below 1 or the Redis address has no port', () => {
      expect(routeErrors({ modelName: 'm', rules: [{ targets: TO_QWEN }], rateLimit: { unit: KthenaRateLimitUnit.HOUR } })).toEqual([
        'spec.rateLimit: Required value: a rate limit needs inputTokensPerUnit or outputTokensPerUnit; without either it limits nothing',
      ]);
      expect(routeErrors({ modelName: 'm', rules: [{ targets: TO_QWEN }], rateLimit: { inputTokensPerUnit: 0, redisAddress: 'redis' } })).toEqual([
        'spec.rateLimit.inputTokensPerUnit: Invalid value: 0: must be a whole number of at least 1: prompt tokens per unit',
        'spec.rateLimit.global.redis.address: Invalid value: "redis": must be "host:port"',
      ]);
    });

    test('fails when a parent reference breaks the Gateway API patterns (also refused by the CRD)', () => {
      const props = {
        modelName: 'm',
        rules: [{ targets: TO_QWEN }],
        parentRefs: [{ name: '', parentNamespace: 'Kthena', sectionName: 'HTTP', port: 0, group: 'Gateway.Networking', kind: '1Gateway' }],
      };
      expect(routeErrors(props)).toEqual([
        'spec.parentRefs[0].name: Invalid value: "": must be 1 to 253 characters long',
        expect.stringContaining('spec.parentRefs[0].namespace: Invalid value: "Kthena": must consist of lower case alphanumeric characters'),
        expect.stringContaining('spec.parentRefs[0].sectionName: Invalid value: "HTTP": must consist of lower case alphanumeric characters'),
        'spec.parentRefs[0].port: Invalid value: 0: must be a whole number from 1 to 65535: a TCP port',
        'spec.parentRefs[0].group: Invalid value: "Gateway.Networking": must be empty (the core group) or a DNS subdomain of at most 253 characters',
        'spec.parentRefs[0].kind: Invalid value: "1Gateway": must be 1 to 63 letters, digits and \'-\', starting with a letter',
      ]);
      const upstream = rawRouteViolations(props);
      for (const field of ['name', 'namespace', 'sectionName', 'port', 'group', 'kind']) expect(upstream).toContain(`spec.parentRefs[0].${field}`);
    });
  });
});
