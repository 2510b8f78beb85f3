import { parse } from 'yaml';
import { kuberayPdServeConfig, kuberayServeConfig, LlmConfig, SERVE_IMPORT_PATH, SERVE_PD_IMPORT_PATH } from '../../../src/providers/kuberay/serve-config';

const config = (over: Partial<LlmConfig> = {}): LlmConfig => ({
  modelId: 'chat', modelSource: 'Qwen/Qwen3-8B', engineKwargs: { max_model_len: 8192, enable_prefix_caching: false }, replicas: 2, ...over,
});

describe('kuberayServeConfig', () => {
  test('one Ray Serve LLM application: the model, the engine kwargs as typed values, the replicas', () => {
    const text = kuberayServeConfig(config());
    // KubeRay reads the field as YAML; the JSON we write is YAML.
    expect(parse(text)).toEqual({
      applications: [{
        name: 'llm',
        route_prefix: '/',
        import_path: SERVE_IMPORT_PATH,
        args: {
          llm_configs: [{
            model_loading_config: { model_id: 'chat', model_source: 'Qwen/Qwen3-8B' },
            engine_kwargs: { max_model_len: 8192, enable_prefix_caching: false },
            deployment_config: { num_replicas: 2 },
          }],
        },
      }],
    });
    expect(SERVE_IMPORT_PATH).toBe('ray.serve.llm:build_openai_app');
  });

  test('Ray Serve autoscaling replaces num_replicas (Serve takes one or the other)', () => {
    const autoscaling = { min_replicas: 0, max_replicas: 4, target_ongoing_requests: 16 };
    const app = parse(kuberayServeConfig(config({ autoscalingConfig: autoscaling }))).applications[0];
    expect(app.args.llm_configs[0].deployment_config).toEqual({ autoscaling_config: autoscaling });
  });

  test('prefill/decode: the P/D builder with a prefill and a decode config', () => {
    const kv = { kv_transfer_config: { kv_connector: 'NixlConnector', kv_role: 'kv_both' } };
    const prefill = config({ engineKwargs: kv, replicas: 1 });
    const decode = config({ engineKwargs: { ...kv, tensor_parallel_size: 2 }, replicas: 3 });
    const app = parse(kuberayPdServeConfig(prefill, decode)).applications[0];
    expect(app.import_path).toBe(SERVE_PD_IMPORT_PATH);
    expect(SERVE_PD_IMPORT_PATH).toBe('ray.serve.llm:build_pd_openai_app');
    expect(app.args.prefill_config.deployment_config).toEqual({ num_replicas: 1 });
    expect(app.args.decode_config).toMatchObject({ engine_kwargs: { tensor_parallel_size: 2 }, deployment_config: { num_replicas: 3 } });
  });

  test('strings that would break a hand-written YAML stay one value', () => {
    const hostile = 'a: b\n- c # d "e"';
    const app = parse(kuberayServeConfig(config({ modelId: hostile, engineKwargs: { chat_template: hostile } }))).applications[0];
    expect(app.args.llm_configs[0].model_loading_config.model_id).toBe(hostile);
    expect(app.args.llm_configs[0].engine_kwargs.chat_template).toBe(hostile);
  });
});
