import { disaggregatedDeployment, flexInferDeployment, FixtureOptions, llamaCppCpuDeployment } from './fixtures';
import { FlexInferProvider } from '../../../src/providers/flexinfer';
import { validateFlexInfer } from '../../../src/providers/flexinfer/validation';
import { translatorHarness } from '../../support/translator-harness';

const { errorsOf, withOverrides } = translatorHarness(new FlexInferProvider(), flexInferDeployment);

const ANNOTATION = (name: string) => `metadata.annotations["inference.cdk8s.io/flexinfer-${name}"]`;
const POD_TARGETS = 'targets that support it: dynamo, kuberay, llmd, vllm';
const CACHE_VOLUME = { name: 'model-cache', purpose: 'modelCache' as const, size: '100Gi', claimName: 'qwen-model-cache', accessMode: 'ReadWriteMany' as const, mountPath: '/model-cache' };

function annotated(annotations: Record<string, string>, options: FixtureOptions = {}): FixtureOptions {
  return { ...options, annotations };
}

describe('validateFlexInfer', () => {
  test('accepts the baseline deployment and the llama.cpp CPU one', () => {
    expect(errorsOf()).toEqual([]);
    expect(errorsOf(llamaCppCpuDeployment())).toEqual([]);
    expect(validateFlexInfer(flexInferDeployment())).toEqual([]);
  });

  describe('features FlexInfer lacks name the feature, the target and the targets that have them', () => {
    test('fails when the engine is one FlexInfer has no backend for', () => {
      expect(errorsOf({ spec: { engine: { type: 'sglang' } } })).toEqual([
        'spec.engine.type: Invalid value: "sglang": engine sglang is not supported by target flexinfer: FlexInfer has no backend for it (it runs vllm and llamacpp); targets that support it: dynamo',
      ]);
      expect(errorsOf({ spec: { engine: { type: 'trtllm' } } })[0]).toMatch(/^spec\.engine\.type: Invalid value: "trtllm": engine trtllm is not supported by target flexinfer/);
    });

    test('fails when the serving is disaggregated', () => {
      expect(errorsOf(disaggregatedDeployment())).toEqual([
        'spec.serving.mode: Invalid value: "disaggregated": disaggregated (prefill/decode) serving is not supported by target flexinfer: a Model is one pod template serving whole requests; targets that support it: dynamo, kuberay, llmd',
      ]);
    });

    test('fails when the deployment sets env', () => {
      expect(errorsOf({ spec: { env: [{ name: 'A', value: 'b' }] } })).toEqual([
        `spec.env: Forbidden: environment variables (spec.env) is not supported by target flexinfer: a Model has no env field; FlexInfer sets the container env from the backend and its config; ${POD_TARGETS}`,
      ]);
    });

    test('fails when the deployment needs a Hugging Face token', () => {
      expect(errorsOf({ spec: { secrets: { huggingFaceToken: 'hf' } } })).toEqual([
        "spec.secrets.huggingFaceToken: Forbidden: a Hugging Face token (secrets.huggingFaceToken) is not supported by target flexinfer: a Model has no env or secret field and FlexInfer's prefetch Job reads no token, so only public repositories download; " + POD_TARGETS,
      ]);
    });

    test('fails when the deployment passes raw flags', () => {
      expect(errorsOf({ spec: { engine: { extraArgs: ['--swap-space', '4'] } } })).toEqual([
        expect.stringMatching(/^spec\.engine\.extraArgs\[0\]: Invalid value: "--swap-space": raw engine flags \(engine\.extraArgs\) is not supported by target flexinfer: .*targets that support it: dynamo, kuberay, llmd, vllm$/),
        expect.stringMatching(/^spec\.engine\.extraArgs\[1\]: Invalid value: "4": raw engine flags/),
      ]);
    });

    test('fails when an engine flag has no FlexInfer config key, listing the ones it has', () => {
      const [error] = errorsOf({ spec: { engine: { args: { 'tensor-parallel-size': '2' } } } });
      expect(error).toMatch(/^spec\.engine\.args\.tensor-parallel-size: Invalid value: "tensor-parallel-size": engine flag "tensor-parallel-size" is not supported by target flexinfer: FlexInfer's vllm backend renders the server's flags from named config keys and passes no others; the flags it can set are attention-backend, .*, trust-remote-code; targets that support it/);
      expect(errorsOf(llamaCppCpuDeployment({ spec: { engine: { args: { 'hf-file': 'a.gguf', 'port': '9000' } } } }))[0])
        .toMatch(/^spec\.engine\.args\.port: .*FlexInfer's llamacpp backend .* the flags it can set are batch-size, /);
    });

    test('fails when a storage volume other than the model cache is mounted', () => {
      expect(errorsOf({ spec: { model: { storage: { volumes: [CACHE_VOLUME, { name: 'compile', purpose: 'compilationCache', claimName: 'cc', mountPath: '/compilation-cache' }] } } } })).toEqual([
        `spec.model.storage.volumes[1]: Forbidden: storage volume "compile" (purpose compilationCache) is not supported by target flexinfer: a Model mounts only its model volume, at /models (the first modelCache volume); compilation caches are node-local (cache.compilationCache) and no other volume can be added; ${POD_TARGETS}`,
      ]);
    });

    test('fails when the GPUs are a MIG profile or of a vendor FlexInfer does not name', () => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 1, type: 'nvidia.com/mig-1g.10gb' } } } })).toEqual([
        `spec.resources.gpu.type: Invalid value: "nvidia.com/mig-1g.10gb": MIG GPU profiles (nvidia.com/mig-1g.10gb) is not supported by target flexinfer: a Model requests whole GPUs of a vendor (nvidia.com/gpu or amd.com/gpu), never a GPU partition; ${POD_TARGETS}`,
      ]);
      expect(errorsOf({ spec: { resources: { gpu: { count: 1, type: 'gpu.intel.com/i915' } } } })).toEqual([
        `spec.resources.gpu.type: Invalid value: "gpu.intel.com/i915": GPU type gpu.intel.com/i915 is not supported by target flexinfer: a Model names a GPU vendor, nvidia (nvidia.com/gpu) or amd (amd.com/gpu), and FlexInfer requests that vendor's resource; ${POD_TARGETS}`,
      ]);
    });

    test('fails when a read-only Hugging Face cache would have to be written by the prefetch Job', () => {
      expect(errorsOf({ spec: { model: { storage: { volumes: [{ name: 'weights', purpose: 'modelCache', claimName: 'w', readOnly: true, mountPath: '/model-cache' }] } } } })).toEqual([
        expect.stringMatching(/^spec\.model\.storage\.volumes\[0\]\.readOnly: Invalid value: true: a read-only Hugging Face model cache is not supported by target flexinfer: FlexInfer's prefetch Job downloads/),
      ]);
    });
  });

  describe("the CRD's and the seed's rules", () => {
    test('fails when vLLM would run on CPU (vendor cpu)', () => {
      expect(errorsOf({ spec: { resources: { cpu: '8' } } })).toEqual([
        "spec.resources.gpu.count: Invalid value: 0: FlexInfer's vllm backend runs on NVIDIA or AMD GPUs only; request GPUs, or use engine llamacpp to run on CPU",
      ]);
    });

    test('fails when more than 8 GPUs are requested', () => {
      expect(errorsOf({ spec: { resources: { gpu: { count: 9, type: 'nvidia.com/gpu' } } } })).toEqual([
        'spec.resources.gpu.count: Invalid value: 9: a FlexInfer Model takes 1 to 8 GPUs per replica (gpu.count)',
      ]);
    });

    test('fails when a CPU-only deployment asks to share a GPU or estimates VRAM (vendor cpu)', () => {
      expect(errorsOf(llamaCppCpuDeployment(annotated({
        'inference.cdk8s.io/flexinfer-gpu-shared': 'g',
        'inference.cdk8s.io/flexinfer-vram-estimate-mb': '100',
      })))).toEqual([
        `${ANNOTATION('vram-estimate-mb')}: Forbidden: gpu.vramEstimateMB must be omitted when gpu.vendor is cpu: this deployment requests no GPUs`,
        `${ANNOTATION('gpu-shared')}: Forbidden: gpu.shared must be empty when gpu.vendor is cpu: this deployment requests no GPUs, so there is no GPU to share`,
      ]);
    });

    test('fails when priority or swap cooldown are set without a shared group', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-gpu-priority': '10', 'inference.cdk8s.io/flexinfer-gpu-swap-cooldown': '10m' }))).toEqual([
        `${ANNOTATION('gpu-priority')}: Invalid value: "10": priority only orders the models of a shared GPU group; set inference.cdk8s.io/flexinfer-gpu-shared too`,
        `${ANNOTATION('gpu-swap-cooldown')}: Invalid value: "10m": the swap cooldown belongs to a shared GPU group; set inference.cdk8s.io/flexinfer-gpu-shared too`,
      ]);
    });

    test('fails when the node selector names another GPU vendor than the deployment requests', () => {
      expect(errorsOf({ spec: { nodeSelector: { 'node.flexstack.io/gpu-vendor': 'amd' } } })).toEqual([
        'spec.nodeSelector["node.flexstack.io/gpu-vendor"]: Invalid value: "amd": must match the GPU vendor of the deployment (nvidia, from spec.resources.gpu): the Model\'s CRD requires the two to agree',
      ]);
    });

    test('fails when more replicas are asked than minReplicas allows (10)', () => {
      expect(errorsOf({ spec: { scaling: { replicas: 11 } } })).toEqual([
        'spec.scaling.replicas: Invalid value: 11: FlexInfer keeps a fixed replica count through serverless.minReplicas, at most 10',
      ]);
    });

    test('fails when scale-to-zero is combined with several replicas or with Gateway routing', () => {
      const scaleToZero = { 'inference.cdk8s.io/flexinfer-scale-to-zero': 'true' };
      expect(errorsOf(annotated(scaleToZero, { spec: { scaling: { replicas: 2 } } }))).toEqual([
        expect.stringMatching(/^spec\.scaling\.replicas: Invalid value: 2: FlexInfer's scale-to-zero \(inference\.cdk8s\.io\/flexinfer-scale-to-zero\) runs 0 or 1 replica/),
      ]);
      expect(errorsOf(annotated(scaleToZero, { spec: { gateway: { enabled: true } } }))).toEqual([
        expect.stringMatching(/^spec\.gateway\.enabled: Invalid value: true: a model scaled to zero .* is woken only by requests through flexinfer-proxy/),
      ]);
      expect(errorsOf(annotated(scaleToZero, { spec: { gateway: { enabled: false } } }))).toEqual([]);
    });

    test('fails when the timeouts are set without scale-to-zero', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-idle-timeout': '5m', 'inference.cdk8s.io/flexinfer-cold-start-timeout': '30s' }))).toEqual([
        `${ANNOTATION('idle-timeout')}: Invalid value: "5m": only applies with scale-to-zero; set inference.cdk8s.io/flexinfer-scale-to-zero: "true"`,
        `${ANNOTATION('cold-start-timeout')}: Invalid value: "30s": only applies with scale-to-zero; set inference.cdk8s.io/flexinfer-scale-to-zero: "true"`,
      ]);
    });

    test('fails when LiteLLM aliases are given without LiteLLM discovery', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-litellm-aliases': 'a', 'inference.cdk8s.io/flexinfer-litellm-copilot-alias': 'c' }))).toEqual([
        `${ANNOTATION('litellm-aliases')}: Invalid value: "a": LiteLLM aliases are written only with LiteLLM discovery; set inference.cdk8s.io/flexinfer-litellm: "true"`,
        `${ANNOTATION('litellm-copilot-alias')}: Invalid value: "c": the Copilot alias is written only with LiteLLM discovery; set inference.cdk8s.io/flexinfer-litellm: "true"`,
      ]);
    });
  });

  describe('source and cache', () => {
    test('fails when a Hugging Face model has no id', () => {
      expect(errorsOf({ spec: { model: { id: '' } } })).toEqual(['spec.model.id: Required value: model.id is required when source is huggingface']);
    });

    test('fails when SharedPVC is asked without a modelCache volume (FlexInfer would create a longhorn claim)', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'SharedPVC' }))).toEqual([
        `${ANNOTATION('cache-strategy')}: Invalid value: "SharedPVC": the SharedPVC cache needs a modelCache volume in spec.model.storage.volumes (its claim becomes cache.pvcName); without one FlexInfer would create a 50Gi claim of storage class "longhorn"`,
      ]);
    });

    test('fails when another strategy would leave the modelCache volume unused', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'Memory' }, { spec: { model: { storage: { volumes: [CACHE_VOLUME] } } } }))).toEqual([
        `${ANNOTATION('cache-strategy')}: Invalid value: "Memory": the modelCache volume "model-cache" becomes FlexInfer's SharedPVC cache, which cache strategy Memory would leave unused; remove the volume or the annotation`,
      ]);
    });

    test('fails when llama.cpp from Hugging Face has no staged cache or no GGUF file', () => {
      expect(errorsOf(llamaCppCpuDeployment({ spec: { model: { storage: undefined }, engine: { args: {} } } }))).toEqual([
        "spec.model.storage.volumes: Required value: FlexInfer's llamacpp backend loads a GGUF file that its prefetch Job stages from Hugging Face: add a modelCache volume (the SharedPVC cache), or set inference.cdk8s.io/flexinfer-cache-strategy: Local",
        "spec.engine.args.hf-file: Required value: name the GGUF file of the repository that FlexInfer's llamacpp backend loads, e.g. hf-file: model-Q4_K_M.gguf",
      ]);
      expect(errorsOf(llamaCppCpuDeployment(annotated({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'Local' }, { spec: { model: { storage: undefined } } })))).toEqual([]);
    });

    test('fails when a custom model has no location FlexInfer can serve it from', () => {
      expect(errorsOf({ spec: { model: { source: 'custom', id: 'qwen3' } } })).toEqual([
        'spec.model.id: Invalid value: "qwen3": for model.source custom, FlexInfer needs the location of the weights: set model.id to their absolute path inside the container (file://), or add a modelCache volume holding them (pvc://<claim>/<model.id>)',
      ]);
      expect(errorsOf({ spec: { model: { source: 'custom', id: '../x', storage: { volumes: [CACHE_VOLUME] } } } })[0])
        .toBe('spec.model.id: Invalid value: "../x": the path of the weights inside the modelCache volume may not contain ".."');
    });

    test('fails when a pvc:// or file:// source asks for the Memory or SharedPVC cache', () => {
      const custom: FixtureOptions = { spec: { model: { source: 'custom', id: '/opt/m' } } };
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'Memory' }, custom))).toEqual([
        expect.stringMatching(/^metadata\.annotations\["inference\.cdk8s\.io\/flexinfer-cache-strategy"\]: Invalid value: "Memory": a pvc:\/\/ or file:\/\/ source cannot use the Memory cache/),
      ]);
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-cache-strategy': 'SharedPVC' }, custom))).toEqual([
        expect.stringMatching(/Invalid value: "SharedPVC": copying the weights into a SharedPVC cache needs a claim FlexInfer would create/),
      ]);
    });

    test('fails when a host path is given for a strategy other than Local', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-cache-host-path': '/mnt' }))).toEqual([
        `${ANNOTATION('cache-host-path')}: Invalid value: "/mnt": only applies to the Local cache strategy (here: None); set inference.cdk8s.io/flexinfer-cache-strategy: Local`,
      ]);
    });
  });

  describe('engine args', () => {
    test('fails when a value does not fit the config key', () => {
      expect(errorsOf({ spec: { engine: { args: { 'max-num-seqs': 'many', 'enforce-eager': 'maybe', 'dtype': '' } } } })).toEqual([
        'spec.engine.args.dtype: Invalid value: "": needs a value (FlexInfer config key dtype)',
        'spec.engine.args.enforce-eager: Invalid value: "maybe": is a switch: leave the value empty (or "true"), or set "false" (FlexInfer config key enforceEager)',
        'spec.engine.args.max-num-seqs: Invalid value: "many": must be a whole number (FlexInfer config key maxNumSeqs)',
      ]);
    });

    test('fails when a tool-call parser is given without tool choice (FlexInfer would drop it)', () => {
      expect(errorsOf({ spec: { engine: { args: { 'tool-call-parser': 'hermes' } } } })).toEqual([
        'spec.engine.args.tool-call-parser: Invalid value: "hermes": FlexInfer renders --tool-call-parser only together with --enable-auto-tool-choice; set engine.args enable-auto-tool-choice too',
      ]);
    });
  });

  describe('annotations', () => {
    test('fails when an inference.cdk8s.io/flexinfer-* annotation is unknown (a typo)', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-gpu-sharing': 'g' }))[0])
        .toMatch(/^metadata\.annotations: Unsupported value: "inference\.cdk8s\.io\/flexinfer-gpu-sharing": supported values: "inference\.cdk8s\.io\/flexinfer-gpu-shared", /);
    });

    test.each([
      ['scale-to-zero', 'yes', 'Unsupported value: "yes": supported values: "true", "false"'],
      ['litellm', 'on', 'Unsupported value: "on": supported values: "true", "false"'],
      ['gpu-priority', '1001', 'Invalid value: "1001": must be a whole number from 0 to 1000'],
      ['vram-estimate-mb', '0', 'Invalid value: "0": must be a whole number of megabytes, at least 1'],
      ['idle-timeout', '5 minutes', 'Invalid value: "5 minutes": must be a positive Go duration such as "90s", "5m" or "1h30m"'],
      ['cold-start-timeout', '0s', 'Invalid value: "0s": must be a positive Go duration such as "90s", "5m" or "1h30m"'],
      ['cache-strategy', 'shared', 'Unsupported value: "shared": supported values: "Memory", "SharedPVC", "Local", "None"; did you mean "SharedPVC"?'],
      ['cache-host-path', 'models', 'Invalid value: "models": must be an absolute path on the node'],
      ['litellm-copilot-alias', ' ', 'Invalid value: " ": must be a model name'],
      ['service-labels', 'a,,b', 'Invalid value: "a,,b": must be a comma-separated list of non-empty names'],
      ['service-labels', 'a,b,c,d,e,f,g,h,i,j,k', 'Invalid value: "a,b,c,d,e,f,g,h,i,j,k": lists 11 names; a FlexInfer Model takes at most 10'],
    ])('fails when %s is %j', (name, value, message) => {
      const extra: Record<string, string> = name === 'cache-host-path' ? { 'inference.cdk8s.io/flexinfer-cache-strategy': 'Local' } : {};
      const errors = errorsOf(annotated({ [`inference.cdk8s.io/flexinfer-${name}`]: value, ...extra }));
      expect(errors[0]).toBe(`${ANNOTATION(name)}: ${message}`);
    });

    test('fails when the shared group name is not a label value', () => {
      expect(errorsOf(annotated({ 'inference.cdk8s.io/flexinfer-gpu-shared': 'my group' }))[0])
        .toMatch(/^metadata\.annotations\["inference\.cdk8s\.io\/flexinfer-gpu-shared"\]: Invalid value: "my group": must be a group name usable as a label value/);
    });
  });

  describe('overrides and names', () => {
    test('fails when overrides name a root field a Model does not have, or a blocked one', () => {
      expect(errorsOf(withOverrides({ metadata: { labels: {} }, resource: {}, spec: { gpu: { count: 2 } } }))).toEqual([
        'spec.provider.overrides.metadata: Forbidden: overriding "metadata" is not allowed',
        'spec.provider.overrides.resource: Forbidden: a FlexInfer Model has no root field "resource" (its settings sit under spec); the API server would drop it',
      ]);
      expect(errorsOf(withOverrides({ spec: 'x' }))).toEqual([
        'spec.provider.overrides.spec: Forbidden: overriding "spec" with a non-object is not allowed: it would replace the whole Model spec',
      ]);
      expect(errorsOf(withOverrides([1]))).toEqual(['spec.provider.overrides: Invalid value: "<array>": overrides must be a JSON object']);
    });

    test('fails when FlexInfer could not create its Service or prefetch Job under the deployment name', () => {
      expect(errorsOf({ name: '1qwen' })).toEqual([
        'metadata.name: Invalid value: "1qwen": derived Service name "1qwen" must be a DNS-1035 label (lowercase letters, digits and "-", starting with a letter and ending with a letter or digit)',
      ]);
      const long = 'q'.repeat(50);
      expect(errorsOf({ name: long, spec: { model: { storage: { volumes: [{ name: 'c', purpose: 'modelCache', claimName: 'cache', mountPath: '/model-cache' }] } } } }))
        .toEqual([`metadata.name: Invalid value: "${long}": derived Job name "${long}-cache-prefetch" is 65 characters long, more than the 63 allowed; use a shorter ModelDeployment name`]);
    });
  });
});
