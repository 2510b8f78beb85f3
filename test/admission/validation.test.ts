import { checkProviderCompatibility, CompatibilityViolationKind } from '../../src/admission/compatibility';
import { applyDefaults } from '../../src/admission/defaulting';
import { sizingOverrideMessage } from '../../src/admission/overrides-filter';
import { validateModelDeployment, validateResolvedEngine } from '../../src/admission/validation';
import type { SimulatedBackend } from '../../src/api/provider/inference-provider';
import type { ProviderConfigEntry } from '../../src/api/provider/provider-config-entry';
import { extraArgFlagKey, validateEngineArgs, validateImageFields } from '../../src/core/engine-args';
import { FieldError, FieldErrorKind, formatFieldError } from '../../src/core/field-error';
import type { EngineCapability } from '../../src/core/generated/inference-provider-config-spec';
import type { ModelDeploymentSpec } from '../../src/core/generated/model-deployment-spec';
import type { ModelDeploymentObject } from '../../src/core/model-deployment-object';
import { DynamoProvider } from '../../src/providers/dynamo';

// Capabilities as shipped (spec §2.6); selection rules do not matter to validation.
const both = ['aggregated', 'disaggregated'] as EngineCapability['servingModes'];
const aggregatedOnly = ['aggregated'] as EngineCapability['servingModes'];
function config(name: string, engines: EngineCapability[], ready = true): ProviderConfigEntry {
  return { name, ready, spec: { capabilities: { engines } } };
}
const DYNAMO = config('dynamo', [
  { name: 'vllm', servingModes: both, gpuSupport: true, cpuSupport: false },
  { name: 'sglang', servingModes: both, gpuSupport: true, cpuSupport: false },
  { name: 'trtllm', servingModes: aggregatedOnly, gpuSupport: true, cpuSupport: false },
]);
const KAITO = config('kaito', [
  { name: 'vllm', servingModes: aggregatedOnly, gpuSupport: true, cpuSupport: false },
  { name: 'llamacpp', servingModes: aggregatedOnly, gpuSupport: true, cpuSupport: true },
]);
const KUBERAY = config('kuberay', [{ name: 'vllm', servingModes: both, gpuSupport: true }]);
const LLMD = config('llmd', [{ name: 'vllm', servingModes: both, gpuSupport: true, cpuSupport: false }]);
const VLLM = config('vllm', [{ name: 'vllm', servingModes: aggregatedOnly, gpuSupport: true, cpuSupport: false }]);
const CONFIGS: readonly ProviderConfigEntry[] = [DYNAMO, KAITO, KUBERAY, LLMD, VLLM];

interface MdOptions {
  readonly name?: string;
  /** `null` leaves the namespace unset. */
  readonly namespace?: string | null;
  readonly annotations?: Record<string, string>;
}

const DYNAMO_PROVIDER = new DynamoProvider();

/** What the provider a deployment names says of it: Dynamo's mocker is a simulated backend. */
function simulatedOf(md: ModelDeploymentObject): SimulatedBackend | undefined {
  if (md.spec.provider?.name !== DYNAMO_PROVIDER.name) return undefined;
  return DYNAMO_PROVIDER.simulatedBackend({ name: md.name, labels: {}, annotations: md.annotations ?? {}, spec: md.spec });
}

/** Defaults, then validates — the order admission applies them. */
function admit(spec: ModelDeploymentSpec, options: MdOptions = {}, configs: readonly ProviderConfigEntry[] = CONFIGS) {
  const defaulted = applyDefaults(object(spec, options));
  return validateModelDeployment(defaulted, configs, simulatedOf(defaulted));
}

function object(spec: ModelDeploymentSpec, options: MdOptions = {}): ModelDeploymentObject {
  const namespace = options.namespace === undefined ? 'team-a' : options.namespace ?? undefined;
  return { name: options.name ?? 'qwen', namespace, annotations: options.annotations, spec };
}

function errorsOf(spec: ModelDeploymentSpec, options: MdOptions = {}, configs?: readonly ProviderConfigEntry[]): FieldError[] {
  return admit(spec, options, configs).errors;
}

function rendered(spec: ModelDeploymentSpec, options: MdOptions = {}, configs?: readonly ProviderConfigEntry[]): string[] {
  return errorsOf(spec, options, configs).map(formatFieldError);
}

const MODEL = { id: 'Qwen/Qwen3-0.6B' };
const MOCKER = { annotations: { 'airunway.ai/dynamo-test-backend': 'mocker' } };

describe('validateModelDeployment', () => {
  test('passes the minimal GPU deployment with no warnings', () => {
    expect(admit({ model: MODEL, engine: { type: 'vllm' } })).toEqual({ errors: [], warnings: [] });
  });

  test('passes a CPU deployment that leaves the engine to auto-selection', () => {
    expect(admit({ model: { id: 'google/gemma-3-1b-it-qat-q8_0-gguf' }, resources: { cpu: '4', memory: '8Gi' } })).toEqual({
      errors: [],
      warnings: [],
    });
  });

  describe('rule 1: name', () => {
    test('fails when the name contains a dot', () => {
      expect(errorsOf({ model: MODEL }, { name: 'llama-3.1' })).toEqual([
        {
          path: 'metadata.name',
          kind: FieldErrorKind.INVALID,
          value: 'llama-3.1',
          message: 'name must not contain dots (dots are invalid in derived Kubernetes volume and service names)',
        },
      ]);
    });

    test('fails only with the dot rule when a dotted name breaks the label rule too', () => {
      expect(rendered({ model: MODEL }, { name: 'Llama-3.1' })).toEqual([
        'metadata.name: Invalid value: "Llama-3.1": name must not contain dots (dots are invalid in derived Kubernetes volume and service names)',
      ]);
    });
  });

  describe('metadata: RFC 1123 name and namespace', () => {
    const nameMessage =
      'must be a lowercase RFC 1123 label of at most 63 characters (it names Services and is a label value): ' +
      "lowercase letters, digits and '-', starting and ending with a letter or digit";
    const namespaceMessage =
      "must be a lowercase RFC 1123 label of at most 63 characters: lowercase letters, digits and '-', starting and ending with a letter or digit";

    test('fails when the name has uppercase letters', () => {
      expect(errorsOf({ model: MODEL }, { name: 'Qwen' })).toEqual([
        { path: 'metadata.name', kind: FieldErrorKind.INVALID, value: 'Qwen', message: nameMessage },
      ]);
    });

    test('fails when the name is longer than 63 characters', () => {
      const name = 'a'.repeat(64);
      expect(rendered({ model: MODEL }, { name })).toEqual([`metadata.name: Invalid value: "${name}": ${nameMessage}`]);
    });

    test('fails when the name starts or ends with a dash, or has other characters', () => {
      for (const name of ['-qwen', 'qwen-', 'qwen_3', '']) {
        expect(errorsOf({ model: MODEL }, { name })).toEqual([
          { path: 'metadata.name', kind: FieldErrorKind.INVALID, value: name, message: nameMessage },
        ]);
      }
    });

    test('passes a 63-character name and one starting with a digit', () => {
      expect(errorsOf({ model: MODEL }, { name: 'a'.repeat(63) })).toEqual([]);
      expect(errorsOf({ model: MODEL }, { name: '3-qwen' })).toEqual([]);
    });

    test('fails when the namespace is empty', () => {
      expect(errorsOf({ model: MODEL }, { namespace: '' })).toEqual([
        { path: 'metadata.namespace', kind: FieldErrorKind.INVALID, value: '', message: namespaceMessage },
      ]);
    });

    test('fails when the namespace is not a label or longer than 63 characters', () => {
      const long = 'n'.repeat(64);
      expect(rendered({ model: MODEL }, { namespace: 'Team_A' })).toEqual([`metadata.namespace: Invalid value: "Team_A": ${namespaceMessage}`]);
      expect(rendered({ model: MODEL }, { namespace: 'team.a' })).toEqual([`metadata.namespace: Invalid value: "team.a": ${namespaceMessage}`]);
      expect(rendered({ model: MODEL }, { namespace: long })).toEqual([`metadata.namespace: Invalid value: "${long}": ${namespaceMessage}`]);
    });

    test('passes without a namespace, and with a 63-character one', () => {
      expect(errorsOf({ model: MODEL }, { namespace: null })).toEqual([]);
      expect(errorsOf({ model: MODEL }, { namespace: 'n'.repeat(63) })).toEqual([]);
    });

    test('fails with name, namespace and spec errors together', () => {
      expect(errorsOf({ model: {} }, { name: 'Qwen', namespace: '' }).map((e) => e.path)).toEqual([
        'metadata.name',
        'metadata.namespace',
        'spec.model.id',
      ]);
    });
  });

  describe('rule 2: image fields', () => {
    test('fails when spec.image and spec.engine.image differ', () => {
      expect(rendered({ model: MODEL, image: 'a:1', engine: { type: 'vllm', image: 'b:2' } })).toEqual([
        'spec.engine.image: Invalid value: "b:2": spec.image "a:1" conflicts with spec.engine.image "b:2"; ' +
          'remove spec.image or set both fields to the same value (spec.engine.image is preferred)',
      ]);
    });

    test('passes equal images or only one of them', () => {
      expect(errorsOf({ model: MODEL, image: 'a:1', engine: { type: 'vllm', image: 'a:1' } })).toEqual([]);
      expect(errorsOf({ model: MODEL, image: 'a:1', engine: { type: 'vllm' }, resources: { gpu: { count: 1 } } })).toEqual([]);
      expect(errorsOf({ model: MODEL, engine: { type: 'vllm', image: 'b:2' } })).toEqual([]);
    });
  });

  describe('rule 3: engine args', () => {
    test('fails when a flag is in both args and extraArgs, with the whole list as value', () => {
      const extraArgs = ['--enforce-eager', '--tensor-parallel-size=2'];
      expect(errorsOf({ model: MODEL, engine: { type: 'vllm', args: { 'tensor-parallel-size': '4' }, extraArgs } })).toEqual([
        {
          path: 'spec.engine.extraArgs',
          kind: FieldErrorKind.INVALID,
          value: extraArgs,
          message:
            'launch flag "tensor-parallel-size" is set in both spec.engine.args and spec.engine.extraArgs ("--tensor-parallel-size=2"); ' +
            'set it in exactly one place so the engine does not receive conflicting values',
        },
      ]);
    });

    test('passes single-dash and bare tokens', () => {
      expect(errorsOf({ model: MODEL, engine: { type: 'vllm', args: { 'tensor-parallel-size': '4', 'tp': '' }, extraArgs: ['-tp', '2', 'tp'] } })).toEqual([]);
    });
  });

  describe('rule 4: model id', () => {
    test('fails when a huggingface model has no id', () => {
      expect(errorsOf({ model: {} })).toEqual([
        { path: 'spec.model.id', kind: FieldErrorKind.REQUIRED, message: 'model.id is required when source is huggingface' },
      ]);
      expect(errorsOf({ model: { source: 'huggingface', id: '' } }).map(formatFieldError)).toEqual([
        'spec.model.id: Required value: model.id is required when source is huggingface',
      ]);
    });

    test('passes a custom model without id', () => {
      expect(errorsOf({ model: { source: 'custom' }, engine: { type: 'vllm', image: 'my/image:1' } })).toEqual([]);
    });
  });

  describe('rule 5: overrides', () => {
    test('fails when overrides are not a JSON object', () => {
      expect(rendered({ model: MODEL, provider: { overrides: ['x'] as never } })).toEqual([
        'spec.provider.overrides: Invalid value: "<redacted 5 bytes>": overrides must be a JSON object',
      ]);
    });

    test('fails when overrides contain forbidden keys', () => {
      expect(rendered({ model: MODEL, provider: { overrides: { spec: { containers: [{ securityContext: {} }] } } } })).toEqual([
        'spec.provider.overrides.spec.containers[0].securityContext: Forbidden: overriding "securityContext" is not allowed for security reasons',
      ]);
    });

    test('passes allowed overrides', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'dynamo', overrides: { routerMode: 'kv' } }, engine: { type: 'vllm' } })).toEqual([]);
    });
  });

  describe('rule 6: Dynamo mocker', () => {
    test('fails when the mocker runs a non-vLLM engine', () => {
      expect(rendered({ model: MODEL, provider: { name: 'dynamo' }, engine: { type: 'sglang' } }, MOCKER)).toEqual([
        'spec.engine.type: Invalid value: "sglang": the dynamo mocker test backend only supports the vllm engine',
      ]);
    });

    test('passes the mocker with vLLM', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'dynamo' }, engine: { type: 'vllm' } }, MOCKER)).toEqual([]);
    });

    test('ignores the annotation for other providers', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'kaito' }, engine: { type: 'llamacpp' } }, MOCKER)).toEqual([]);
    });
  });

  describe('rule 7: provider compatibility', () => {
    test('fails when the named provider has no InferenceProviderConfig', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'nim' }, engine: { type: 'vllm' } })).toEqual([
        { path: 'spec.provider.name', kind: FieldErrorKind.INVALID, value: 'nim', message: 'InferenceProviderConfig "nim" not found; known providers: dynamo, kaito, kuberay, llmd, vllm' },
      ]);
    });

    test('fails when the provider does not support the engine', () => {
      expect(rendered({ model: MODEL, provider: { name: 'dynamo' }, engine: { type: 'llamacpp' } })).toEqual([
        'spec.engine.type: Invalid value: "llamacpp": provider dynamo does not support engine llamacpp; targets that support it: kaito',
      ]);
    });

    test('fails when the provider does not support the serving mode for the engine', () => {
      const spec: ModelDeploymentSpec = {
        model: MODEL,
        provider: { name: 'kaito' },
        engine: { type: 'vllm' },
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
      };
      expect(rendered(spec)).toEqual([
        'spec.serving.mode: Invalid value: "disaggregated": provider kaito does not support disaggregated mode for engine vllm; targets that support it: dynamo, kuberay, llmd',
      ]);
    });

    test('fails when a GPU-only engine runs without GPU on the named provider', () => {
      expect(rendered({ model: MODEL, provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { cpu: '8' } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 0: vllm engine on provider dynamo requires GPU (set resources.gpu.count > 0)',
      ]);
    });

    test('fails with both mode and GPU violations when both apply', () => {
      const trtllmCpu = config('solo', [{ name: 'trtllm', servingModes: ['disaggregated'], gpuSupport: true }]);
      expect(
        errorsOf({ model: MODEL, provider: { name: 'solo' }, engine: { type: 'trtllm' }, resources: { gpu: { count: 0 } } }, {}, [trtllmCpu]).map(
          (e) => e.path,
        ),
      ).toEqual(['spec.serving.mode', 'spec.resources.gpu.count']);
    });

    test('passes a CPU engine on a provider that declares CPU support', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'kaito' }, engine: { type: 'llamacpp' } })).toEqual([]);
    });

    test('passes a named provider whose config declares no capabilities', () => {
      const bare: ProviderConfigEntry = { name: 'bare', ready: false, spec: {} };
      expect(errorsOf({ model: MODEL, provider: { name: 'bare' }, engine: { type: 'llamacpp' } }, {}, [bare])).toEqual([]);
    });

    test('is skipped without an explicit engine or provider', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'nim' } })).toEqual([]);
      expect(errorsOf({ model: MODEL, engine: { type: 'vllm' }, resources: { cpu: '2' } })).toEqual([]);
    });

    test('is skipped in mocker mode', () => {
      expect(errorsOf({ model: MODEL, provider: { name: 'dynamo' }, engine: { type: 'vllm' }, resources: { cpu: '2' } }, MOCKER, [])).toEqual([]);
    });

    test('does not check readiness of a named provider', () => {
      const notReady = { ...DYNAMO, ready: false };
      expect(errorsOf({ model: MODEL, provider: { name: 'dynamo' }, engine: { type: 'vllm' } }, {}, [notReady])).toEqual([]);
    });
  });

  describe('rules 8–13: disaggregated serving', () => {
    const disaggregated = (extra: Partial<ModelDeploymentSpec>): ModelDeploymentSpec => ({
      model: MODEL,
      serving: { mode: 'disaggregated' },
      ...extra,
    });

    test('passes prefill and decode with GPUs', () => {
      expect(errorsOf(disaggregated({ scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 2 } } } }))).toEqual([]);
    });

    test('fails when resources.gpu is also set', () => {
      expect(
        rendered(disaggregated({ resources: { gpu: { count: 2 } }, scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } } })),
      ).toEqual(['spec.resources.gpu: Invalid value: 2: cannot specify both resources.gpu and scaling.prefill/decode in disaggregated mode']);
    });

    test('passes resources.gpu.count 0 alongside prefill/decode', () => {
      const scaling = { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } };
      expect(errorsOf(disaggregated({ resources: { gpu: { count: 0 } }, scaling }))).toEqual([]);
    });

    test('fails when scaling is absent', () => {
      expect(errorsOf(disaggregated({}))).toEqual([
        { path: 'spec.scaling', kind: FieldErrorKind.REQUIRED, message: 'disaggregated mode requires scaling configuration' },
      ]);
    });

    test('fails when prefill and decode are absent', () => {
      expect(rendered(disaggregated({ scaling: { replicas: 1 } }))).toEqual([
        'spec.scaling.prefill: Required value: disaggregated mode requires scaling.prefill',
        'spec.scaling.decode: Required value: disaggregated mode requires scaling.decode',
      ]);
    });

    test('fails when prefill or decode have no GPU', () => {
      expect(rendered(disaggregated({ scaling: { prefill: {}, decode: { gpu: { count: 0 } } } }))).toEqual([
        'spec.scaling.prefill.gpu.count: Required value: disaggregated mode requires scaling.prefill.gpu.count > 0',
        'spec.scaling.decode.gpu.count: Required value: disaggregated mode requires scaling.decode.gpu.count > 0',
      ]);
    });

    test('fails when decode is absent but prefill is fine', () => {
      expect(rendered(disaggregated({ scaling: { prefill: { gpu: { count: 1 } } } }))).toEqual([
        'spec.scaling.decode: Required value: disaggregated mode requires scaling.decode',
      ]);
    });

    test('passes GPU-less prefill/decode in mocker mode', () => {
      expect(
        errorsOf(disaggregated({ provider: { name: 'dynamo' }, engine: { type: 'vllm' }, scaling: { prefill: {}, decode: {} } }), MOCKER),
      ).toEqual([]);
    });

    test('still requires prefill and decode in mocker mode', () => {
      expect(rendered(disaggregated({ provider: { name: 'dynamo' }, scaling: { replicas: 1 } }), MOCKER)).toEqual([
        'spec.scaling.prefill: Required value: disaggregated mode requires scaling.prefill',
        'spec.scaling.decode: Required value: disaggregated mode requires scaling.decode',
      ]);
    });
  });

  describe('rule 14: storage', () => {
    test('fails with storage errors at volume paths', () => {
      expect(rendered({ model: { ...MODEL, storage: { volumes: [{ name: 'data', mountPath: '/data' }] } } })).toEqual([
        'spec.model.storage.volumes[0].claimName: Required value: claimName is required when size is not set (must reference a pre-existing PVC)',
      ]);
    });

    test('passes a defaulted managed model cache', () => {
      expect(errorsOf({ model: { ...MODEL, storage: { volumes: [{ name: 'weights', purpose: 'modelCache', size: '200Gi' }] } } })).toEqual([]);
    });

    test('fails when a managed volume size is zero', () => {
      expect(rendered({ model: { ...MODEL, storage: { volumes: [{ name: 'weights', purpose: 'modelCache', size: '0Gi' }] } } })).toEqual([
        'spec.model.storage.volumes[0].size: Invalid value: "0Gi": size must be greater than zero',
      ]);
    });

    test('fails when the managed claim name is not the generated one', () => {
      expect(
        rendered({ model: { ...MODEL, storage: { volumes: [{ name: 'weights', purpose: 'modelCache', size: '1Gi', claimName: 'mine' }] } } }, { name: 'llama' }),
      ).toEqual([
        'spec.model.storage.volumes[0].claimName: Invalid value: "mine": claimName must not be set when size is set (auto-generated as "llama-weights")',
      ]);
    });
  });

  describe('rules 15–21: ceilings', () => {
    test('passes values at the ceilings', () => {
      expect(
        errorsOf({
          model: MODEL,
          resources: { gpu: { count: 64 }, cpu: '512', memory: '4096Gi' },
          scaling: { replicas: 32 },
        }),
      ).toEqual([]);
      expect(
        errorsOf({
          model: MODEL,
          serving: { mode: 'disaggregated' },
          scaling: { prefill: { replicas: 32, gpu: { count: 64 }, memory: '4Ti' }, decode: { replicas: 0, gpu: { count: 1 }, memory: '512000Mi' } },
        }),
      ).toEqual([]);
    });

    test('fails when resources.gpu.count exceeds 64', () => {
      expect(rendered({ model: MODEL, resources: { gpu: { count: 65 } } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 65: exceeds maximum allowed (64)',
      ]);
    });

    test('fails when resources.cpu is not a quantity', () => {
      expect(rendered({ model: MODEL, resources: { cpu: 'four' } })).toEqual(['spec.resources.cpu: Invalid value: "four": invalid resource quantity']);
    });

    test('fails when resources.cpu exceeds 512', () => {
      expect(rendered({ model: MODEL, resources: { cpu: '512001m' } })).toEqual([
        'spec.resources.cpu: Invalid value: "512001m": exceeds maximum allowed (512)',
      ]);
    });

    test('passes cpu in millicores and exponent form', () => {
      expect(errorsOf({ model: MODEL, resources: { cpu: '500m' } })).toEqual([]);
      expect(errorsOf({ model: MODEL, resources: { cpu: '5.12e2' } })).toEqual([]);
    });

    test('fails when resources.memory is not a quantity', () => {
      expect(rendered({ model: MODEL, resources: { memory: '8GB' } })).toEqual(['spec.resources.memory: Invalid value: "8GB": invalid resource quantity']);
    });

    test('fails when resources.memory exceeds 4Ti (4097Gi)', () => {
      expect(rendered({ model: MODEL, resources: { memory: '4097Gi' } })).toEqual([
        'spec.resources.memory: Invalid value: "4097Gi": exceeds maximum allowed (4Ti)',
      ]);
    });

    test('fails when decimal memory exceeds 4Ti', () => {
      // 4.5T is 4.5e12 bytes, more than 4Ti = 4398046511104 bytes.
      expect(rendered({ model: MODEL, resources: { memory: '4.5T' } })).toEqual([
        'spec.resources.memory: Invalid value: "4.5T": exceeds maximum allowed (4Ti)',
      ]);
    });

    test('fails when scaling.replicas exceeds 32', () => {
      expect(rendered({ model: MODEL, scaling: { replicas: 40 } })).toEqual(['spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)']);
    });

    test('fails when component values exceed their ceilings, component by component', () => {
      const spec: ModelDeploymentSpec = {
        model: MODEL,
        serving: { mode: 'disaggregated' },
        scaling: {
          prefill: { replicas: 33, gpu: { count: 65 }, memory: '5Ti' },
          decode: { replicas: 40, gpu: { count: 100 }, memory: 'lots' },
        },
      };
      expect(rendered(spec)).toEqual([
        'spec.scaling.prefill.replicas: Invalid value: 33: exceeds maximum allowed (32)',
        'spec.scaling.prefill.gpu.count: Invalid value: 65: exceeds maximum allowed (64)',
        'spec.scaling.prefill.memory: Invalid value: "5Ti": exceeds maximum allowed (4Ti)',
        'spec.scaling.decode.replicas: Invalid value: 40: exceeds maximum allowed (32)',
        'spec.scaling.decode.gpu.count: Invalid value: 100: exceeds maximum allowed (64)',
        'spec.scaling.decode.memory: Invalid value: "lots": invalid resource quantity',
      ]);
    });

    test('applies component ceilings in aggregated mode too', () => {
      expect(rendered({ model: MODEL, scaling: { replicas: 1, prefill: { replicas: 50 } } })).toEqual([
        'spec.scaling.prefill.replicas: Invalid value: 50: exceeds maximum allowed (32)',
      ]);
    });
  });

  describe('GPU types and the GPU taint annotation (ours: the API server would refuse the objects)', () => {
    const gpu = (type: string) => ({ model: MODEL, resources: { gpu: { count: 1, type } } });

    test.each(['nvidia.com/gpu', 'amd.com/gpu', 'gpu.intel.com/i915', 'nvidia.com/mig-1g.10gb', 'example.com/Accel_2', ''])('accepts gpu.type %j', (type) => {
      expect(rendered(gpu(type))).toEqual([]);
    });

    test.each([
      ['gpu', 'it has no domain prefix (a name without one is a native resource such as cpu or memory)'],
      ['kubernetes.io/gpu', 'the kubernetes.io/ namespace is reserved for native resources'],
      ['node.kubernetes.io/gpu', 'the kubernetes.io/ namespace is reserved for native resources'],
      ['requests.nvidia.com/gpu', 'the "requests." prefix is reserved for resource quota'],
      ['nvidia.com/', 'name part must be non-empty'],
      ['/gpu', 'prefix part must be non-empty'],
      ['NVIDIA.com/gpu', "prefix part must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"],
      ['nvidia.com/gpu/0', "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'"],
      ['nvidia.com/mig 1g', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"],
      [`nvidia.com/${'g'.repeat(64)}`, 'name part must be no more than 63 characters'],
      [`${'a'.repeat(245)}/gpu`, 'prefix part must be no more than 244 characters'],
    ])('fails when gpu.type is %j', (type, problem) => {
      const errors = errorsOf(gpu(type));
      expect(errors.map((e) => [e.path, e.kind, e.value])).toEqual([['spec.resources.gpu.type', FieldErrorKind.INVALID, type]]);
      expect(errors[0].message.endsWith(problem)).toBe(true);
    });

    test('names the value, what is allowed and what is wrong', () => {
      expect(rendered(gpu('gpu'))).toEqual([
        'spec.resources.gpu.type: Invalid value: "gpu": must be an extended resource name: a DNS subdomain prefix, \'/\', and a name of at most ' +
          '63 alphanumeric characters, \'-\', \'_\' or \'.\', outside the kubernetes.io/ and requests. namespaces ("nvidia.com/gpu", "amd.com/gpu", ' +
          '"gpu.intel.com/i915", "nvidia.com/mig-1g.10gb"); it has no domain prefix (a name without one is a native resource such as cpu or memory)',
      ]);
    });

    test('checks the prefill and decode types at their paths', () => {
      const spec: ModelDeploymentSpec = {
        model: MODEL,
        serving: { mode: 'disaggregated' },
        scaling: { prefill: { gpu: { count: 1, type: 'amd.com/gpu' } }, decode: { gpu: { count: 1, type: 'mig-1g.10gb' } } },
      };
      expect(errorsOf(spec).map((e) => `${e.path} ${e.value}`)).toEqual(['spec.scaling.decode.gpu.type mig-1g.10gb']);
    });

    test.each(['true', 'false'])('accepts the annotation inference.cdk8s.io/tolerate-gpu-taint: %j', (value) => {
      expect(rendered(gpu('nvidia.com/gpu'), { annotations: { 'inference.cdk8s.io/tolerate-gpu-taint': value } })).toEqual([]);
    });

    test.each(['yes', 'True', ''])('fails when the annotation inference.cdk8s.io/tolerate-gpu-taint is %j', (value) => {
      expect(rendered(gpu('nvidia.com/gpu'), { annotations: { 'inference.cdk8s.io/tolerate-gpu-taint': value } })).toEqual([
        `metadata.annotations["inference.cdk8s.io/tolerate-gpu-taint"]: Unsupported value: ${JSON.stringify(value)}: supported values: "true", "false"`,
      ]);
    });
  });

  test('collects errors from every rule in order', () => {
    const spec: ModelDeploymentSpec = {
      model: { source: 'huggingface' },
      image: 'a:1',
      engine: { type: 'vllm', image: 'b:2' },
      resources: { gpu: { count: 65 }, cpu: '1k', memory: 'x' },
      scaling: { replicas: 40 },
    };
    expect(errorsOf(spec, { name: 'a.b' }).map((e) => e.path)).toEqual([
      'metadata.name',
      'spec.engine.image',
      'spec.model.id',
      'spec.resources.gpu.count',
      'spec.resources.cpu',
      'spec.resources.memory',
      'spec.scaling.replicas',
    ]);
  });

  test('renders the aggregated denial like the webhook', () => {
    const message = `[${errorsOf({ model: {}, scaling: { replicas: 40 } }).map(formatFieldError).join(', ')}]`;
    expect(message).toBe(
      '[spec.model.id: Required value: model.id is required when source is huggingface, spec.scaling.replicas: Invalid value: 40: exceeds maximum allowed (32)]',
    );
  });

  test('fails with all five errors of the §10.3 example', () => {
    const spec: ModelDeploymentSpec = {
      model: { source: 'huggingface' },
      engine: { args: { 'max-model-len': '8192' }, extraArgs: ['--max-model-len=4096'] },
      provider: { overrides: { worker: { securityContext: { privileged: true }, replicas: 5 } } },
    };
    expect(errorsOf(spec, { name: 'llama-3.1' })).toEqual([
      {
        path: 'metadata.name',
        kind: FieldErrorKind.INVALID,
        value: 'llama-3.1',
        message: 'name must not contain dots (dots are invalid in derived Kubernetes volume and service names)',
      },
      {
        path: 'spec.engine.extraArgs',
        kind: FieldErrorKind.INVALID,
        value: ['--max-model-len=4096'],
        message:
          'launch flag "max-model-len" is set in both spec.engine.args and spec.engine.extraArgs ("--max-model-len=4096"); ' +
          'set it in exactly one place so the engine does not receive conflicting values',
      },
      { path: 'spec.model.id', kind: FieldErrorKind.REQUIRED, message: 'model.id is required when source is huggingface' },
      {
        path: 'spec.provider.overrides.worker.securityContext',
        kind: FieldErrorKind.FORBIDDEN,
        message: 'overriding "securityContext" is not allowed for security reasons',
      },
      {
        path: 'spec.provider.overrides.worker.replicas',
        kind: FieldErrorKind.FORBIDDEN,
        message: sizingOverrideMessage('replicas'),
      },
    ]);
  });

  describe('warnings', () => {
    test('warns that servedName is ignored for custom models', () => {
      expect(admit({ model: { source: 'custom', servedName: 'my-model' }, engine: { type: 'vllm', image: 'x:1' } }).warnings).toEqual([
        'servedName is ignored for custom source (model name is defined by the container)',
      ]);
    });

    test('does not warn about servedName for huggingface models', () => {
      expect(admit({ model: { ...MODEL, servedName: 'qwen' } }).warnings).toEqual([]);
    });

    test('warns about trustRemoteCode', () => {
      expect(admit({ model: MODEL, engine: { trustRemoteCode: true } }).warnings).toEqual([
        'trustRemoteCode=true allows execution of arbitrary code from HuggingFace',
      ]);
    });

    test('does not warn about contextLength with trtllm: Dynamo\'s worker takes it as --max-seq-len (AI Runway warns it is ignored)', () => {
      expect(admit({ model: MODEL, engine: { type: 'trtllm', contextLength: 8192 } }).warnings).toEqual([]);
      expect(admit({ model: MODEL, engine: { type: 'trtllm', contextLength: 0 } }).warnings).toEqual([]);
      expect(admit({ model: MODEL, engine: { type: 'vllm', contextLength: 8192 } }).warnings).toEqual([]);
    });

    test('warns about read-only caches, volume by volume', () => {
      const result = admit({
        model: {
          ...MODEL,
          storage: {
            volumes: [
              { name: 'cc', purpose: 'compilationCache', claimName: 'cc', readOnly: true },
              { name: 'weights', purpose: 'modelCache', claimName: 'weights', readOnly: true },
            ],
          },
        },
      });
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([
        'storage volume "cc" has purpose=compilationCache with readOnly=true; compilation cache requires write access',
        'storage volume "weights" has purpose=modelCache with readOnly=true; model download will be skipped (ensure the PVC already contains the model data)',
      ]);
    });

    test('does not warn about a read-only model cache for custom models', () => {
      const result = admit({
        model: { source: 'custom', storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'weights', readOnly: true }] } },
        engine: { type: 'vllm', image: 'x:1' },
      });
      expect(result.warnings).toEqual([]);
    });

    test('does not warn about replicas: whether 0 runs zero depends on the provider, known after admission', () => {
      expect(admit({ model: MODEL, scaling: { replicas: 0 } })).toEqual({ errors: [], warnings: [] });
      expect(admit({ model: MODEL, scaling: { replicas: 1 } }).warnings).toEqual([]);
      expect(admit({ model: MODEL }).warnings).toEqual([]);
      expect(
        admit({
          model: MODEL,
          serving: { mode: 'disaggregated' },
          scaling: { replicas: 0, prefill: { gpu: { count: 1 } }, decode: { replicas: 0, gpu: { count: 1 } } },
        }).warnings,
      ).toEqual([]);
    });

    test('returns warnings alongside errors', () => {
      const result = admit({ model: {}, engine: { trustRemoteCode: true } });
      expect(result.errors.map((e) => e.path)).toEqual(['spec.model.id']);
      expect(result.warnings).toEqual(['trustRemoteCode=true allows execution of arbitrary code from HuggingFace']);
    });
  });
});

describe('validateResolvedEngine', () => {
  const defaulted = (spec: ModelDeploymentSpec, options: MdOptions = {}) => applyDefaults(object(spec, options));

  test('passes an auto-selected llamacpp engine without GPU (kaito declares CPU)', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL, resources: { cpu: '4' } }), 'llamacpp', CONFIGS)).toEqual([]);
  });

  test('fails when no config runs the engine on CPU and no provider is named', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL, resources: { cpu: '4' } }), 'vllm', CONFIGS)).toEqual([
      {
        path: 'spec.resources.gpu.count',
        kind: FieldErrorKind.INVALID,
        value: 0,
        message: 'vllm engine requires GPU (set resources.gpu.count > 0)',
      },
    ]);
  });

  test('counts CPU support of configs that are not ready', () => {
    const kaitoDown = { ...KAITO, ready: false };
    expect(validateResolvedEngine(defaulted({ model: MODEL }), 'llamacpp', [DYNAMO, kaitoDown])).toEqual([]);
  });

  test('passes with no configs at all (nothing to check against)', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL }), 'vllm', [])).toEqual([]);
  });

  test('passes with a GPU or in disaggregated mode', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL, resources: { gpu: { count: 1 } } }), 'vllm', CONFIGS)).toEqual([]);
    const disaggregated = defaulted({
      model: MODEL,
      serving: { mode: 'disaggregated' },
      scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
    });
    expect(validateResolvedEngine(disaggregated, 'vllm', CONFIGS)).toEqual([]);
  });

  test('fails when the named provider does not support the auto-selected engine', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL, provider: { name: 'dynamo' } }), 'llamacpp', CONFIGS).map(formatFieldError)).toEqual([
      'spec.engine.type: Invalid value: "llamacpp": provider dynamo does not support engine llamacpp; targets that support it: kaito',
    ]);
  });

  test('fails when the named provider needs a GPU for the engine', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL, provider: { name: 'llmd' } }), 'vllm', CONFIGS).map(formatFieldError)).toEqual([
      'spec.resources.gpu.count: Invalid value: 0: vllm engine on provider llmd requires GPU (set resources.gpu.count > 0)',
    ]);
  });

  test('fails when the named provider does not support the mode', () => {
    const spec: ModelDeploymentSpec = {
      model: MODEL,
      provider: { name: 'vllm' },
      serving: { mode: 'disaggregated' },
      scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } },
    };
    expect(validateResolvedEngine(defaulted(spec), 'vllm', CONFIGS).map(formatFieldError)).toEqual([
      'spec.serving.mode: Invalid value: "disaggregated": provider vllm does not support disaggregated mode for engine vllm; targets that support it: dynamo, kuberay, llmd',
    ]);
  });

  test('passes a named provider missing from the configs (recorded, never deployed)', () => {
    expect(validateResolvedEngine(defaulted({ model: MODEL, provider: { name: 'nim' } }), 'vllm', CONFIGS)).toEqual([]);
  });

  test('fails when the mocker resolves a non-vLLM engine', () => {
    const md = defaulted({ model: MODEL, provider: { name: 'dynamo' } }, MOCKER);
    expect(validateResolvedEngine(md, 'llamacpp', CONFIGS, simulatedOf(md))).toEqual([
      { path: 'spec.engine.type', kind: FieldErrorKind.INVALID, value: 'llamacpp', message: 'the dynamo mocker test backend only supports the vllm engine' },
    ]);
  });

  test('skips the GPU check in mocker mode', () => {
    const md = defaulted({ model: MODEL, provider: { name: 'dynamo' } }, MOCKER);
    expect(validateResolvedEngine(md, 'vllm', CONFIGS, simulatedOf(md))).toEqual([]);
  });
});

describe('checkProviderCompatibility', () => {
  test('returns kinds, paths and values', () => {
    expect(checkProviderCompatibility('dynamo', DYNAMO, undefined, 'trtllm', 'disaggregated', 0)).toEqual([
      {
        kind: CompatibilityViolationKind.SERVING_MODE_UNSUPPORTED,
        path: 'spec.serving.mode',
        value: 'disaggregated',
        message: 'provider dynamo does not support disaggregated mode for engine trtllm',
      },
    ]);
  });

  test('skips the CPU check for admission (allConfigs undefined) when no provider is named', () => {
    expect(checkProviderCompatibility(undefined, undefined, undefined, 'vllm', 'aggregated', 0)).toEqual([]);
  });

  test('checks nothing without an engine', () => {
    expect(checkProviderCompatibility('dynamo', DYNAMO, CONFIGS, undefined, 'aggregated', 0)).toEqual([]);
  });

  test('stops after an unsupported engine', () => {
    expect(checkProviderCompatibility('kaito', KAITO, CONFIGS, 'sglang', 'disaggregated', 0).map((v) => v.kind)).toEqual([
      CompatibilityViolationKind.ENGINE_UNSUPPORTED,
    ]);
  });
});

describe('engine-args helpers', () => {
  test.each([
    ['--max-model-len=4096', 'max-model-len'],
    ['--max-model-len', 'max-model-len'],
    ['-- max-model-len =1', 'max-model-len'],
    ['--a=b=c', 'a'],
    ['--', undefined],
    ['---x', undefined],
    ['-tp', undefined],
    ['2', undefined],
    ['--=1', undefined],
  ])('extraArgFlagKey(%j) is %j', (token, key) => {
    expect(extraArgFlagKey(token)).toBe(key);
  });

  test('reports the first collision in extraArgs order', () => {
    expect(validateEngineArgs({ a: '1', b: '2' }, ['--x', '--b', '--a=3'])).toBe(
      'launch flag "b" is set in both spec.engine.args and spec.engine.extraArgs ("--b"); set it in exactly one place so the engine does not receive conflicting values',
    );
  });

  test('matches args keys exactly (case-sensitive, not de-dashed)', () => {
    expect(validateEngineArgs({ 'Max-Model-Len': '1', '--dtype': 'auto' }, ['--max-model-len=2', '--dtype=half'])).toBeUndefined();
  });

  test('passes when either side is empty', () => {
    expect(validateEngineArgs({}, ['--a'])).toBeUndefined();
    expect(validateEngineArgs({ a: '' }, [])).toBeUndefined();
    expect(validateEngineArgs(undefined, undefined)).toBeUndefined();
  });

  test('validateImageFields only fails for two different non-empty images', () => {
    expect(validateImageFields('a', 'a')).toBeUndefined();
    expect(validateImageFields('', 'b')).toBeUndefined();
    expect(validateImageFields('a', undefined)).toBeUndefined();
    expect(validateImageFields('a', 'b')).toBe(
      'spec.image "a" conflicts with spec.engine.image "b"; remove spec.image or set both fields to the same value (spec.engine.image is preferred)',
    );
  });
});
