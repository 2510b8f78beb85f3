/**
 * The KubeRay half of the engine conformance check: every RayService's `serveConfigV2` judged by
 * what Ray Serve LLM and vLLM read from it — the application's builder is one `ray.serve.llm`
 * exports, its `args` are fields of the builder's argument model, each LLM config's keys are
 * LLMConfig's and its model's ModelLoadingConfig's (Ray's source:
 * test/fixtures/engine-parsers/ray-<version>-serve-llm.json), every `engine_kwargs` key is a field
 * of vLLM's engine arguments (AsyncEngineArgs of the vLLM that Ray release installs:
 * ray-<version>-engine-args.json), and the engine's ranks (tensor × pipeline parallel) fit the
 * GPUs of the worker pods Ray places it on. The Ray release is the KubeRay default image's: the
 * version matrix's kuberay row names its parser (`ray-<version>-serve-llm`), so moving the default
 * moves the check.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { PARSER_DEFINITIONS_DIR } from './engine-command-lines';
import { DEFAULT_IMAGES } from '../../src/core/version-matrix';

type Json = any;

/** `ray-<version>`: the prefix of the Ray fixtures of the KubeRay default image. */
function kuberayRayFixturePrefix(): string {
  const parser = DEFAULT_IMAGES.find((d) => d.provider === 'kuberay' && d.engine === 'vllm')?.parser;
  const m = /^(ray-\d+\.\d+\.\d+)-serve-llm$/.exec(parser ?? '');
  if (!m) throw new Error(`the version matrix's kuberay row names parser ${parser}, not ray-<version>-serve-llm`);
  return m[1];
}

const RAY_FIXTURES = kuberayRayFixturePrefix();
const RAY = JSON.parse(fs.readFileSync(path.join(PARSER_DEFINITIONS_DIR, `${RAY_FIXTURES}-serve-llm.json`), 'utf8'));
const ENGINE_FIELDS: ReadonlySet<string> = new Set(
  JSON.parse(fs.readFileSync(path.join(PARSER_DEFINITIONS_DIR, `${RAY_FIXTURES}-engine-args.json`), 'utf8')).fields,
);

/** One RayService's verdict. */
export interface RayServeResult {
  readonly source: string;
  readonly problems: readonly string[];
  /** The LLM configs found, for coverage. */
  readonly llmConfigs: number;
}

/** What is wrong with one LLM config that a worker pod of `gpus` GPUs runs. */
function llmConfigProblems(where: string, config: Json, gpus: number): string[] {
  const out: string[] = [];
  for (const key of Object.keys(config ?? {})) if (!RAY.LLMConfig.includes(key)) out.push(`${where}: ${key} is not a field of LLMConfig`);
  for (const key of Object.keys(config?.model_loading_config ?? {})) {
    if (!RAY.ModelLoadingConfig.includes(key)) out.push(`${where}.model_loading_config: ${key} is not a field of ModelLoadingConfig`);
  }
  if (!config?.model_loading_config?.model_id) out.push(`${where}: no model_loading_config.model_id`);
  const kwargs = config?.engine_kwargs ?? {};
  for (const key of Object.keys(kwargs)) if (!ENGINE_FIELDS.has(key)) out.push(`${where}.engine_kwargs: ${key} is not an engine argument of vLLM`);
  const ranks = Number(kwargs.tensor_parallel_size ?? 1) * Number(kwargs.pipeline_parallel_size ?? 1) * Number(kwargs.data_parallel_size ?? 1);
  if (gpus > 0 && ranks !== gpus) out.push(`${where}: ${ranks} ranks on worker pods of ${gpus} GPUs`);
  const kv = kwargs.kv_transfer_config;
  if (kv !== undefined && (typeof kv !== 'object' || kv.kv_connector !== 'NixlConnector')) out.push(`${where}: kv_transfer_config ${JSON.stringify(kv)} is not NIXL`);
  return out;
}

/** GPUs one Serve replica of a role runs on: the GPUs of its worker group's pods, times the pods of a multi-node replica. */
function roleGpus(rayService: Json, role: 'prefill' | 'decode' | 'serving', replicas: number): number {
  const groups: Json[] = rayService.spec?.rayClusterConfig?.workerGroupSpecs ?? [];
  const group = groups.find((g) => (role === 'serving' ? true : g.groupName === `${role}-workers`));
  if (!group) return 0;
  const limits = group.template?.spec?.containers?.[0]?.resources?.limits ?? {};
  const perPod = Number(Object.entries(limits).find(([k]) => /gpu$/.test(k))?.[1] ?? 0);
  // A multi-node replica spans `pods / replicas` worker pods.
  const pods = Number(group.replicas ?? 1);
  const podsPerReplica = role === 'serving' && replicas > 0 && pods > 0 ? Math.max(1, Math.round(pods / replicas)) : 1;
  return perPod * podsPerReplica;
}

/** The verdict on every RayService in `objects`. */
export function rayServeResults(objects: readonly Json[], where: string): RayServeResult[] {
  const out: RayServeResult[] = [];
  for (const o of objects) {
    if (o?.kind !== 'RayService' || typeof o.spec?.serveConfigV2 !== 'string') continue;
    const source = `${where}: RayService ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
    const problems: string[] = [];
    let configs = 0;
    let doc: Json;
    try {
      doc = parse(o.spec.serveConfigV2);
    } catch (e) {
      out.push({ source, problems: [`serveConfigV2 is not YAML: ${(e as Error).message}`], llmConfigs: 0 });
      continue;
    }
    for (const [i, app] of (doc?.applications ?? []).entries()) {
      const at = `applications[${i}]`;
      const [module, builder] = String(app.import_path ?? '').split(':');
      if (module !== RAY.module || !RAY.builders.includes(builder)) {
        problems.push(`${at}: import_path ${app.import_path} is not a builder ray.serve.llm exports (${RAY.builders.join(', ')})`);
        continue;
      }
      const fields: string[] = RAY.builderArgs[builder] ?? [];
      for (const key of Object.keys(app.args ?? {})) if (!fields.includes(key)) problems.push(`${at}.args: ${key} is not a field of ${builder}'s arguments`);
      if (builder === 'build_openai_app') {
        for (const [j, c] of (app.args?.llm_configs ?? []).entries()) {
          configs++;
          problems.push(...llmConfigProblems(`${at}.args.llm_configs[${j}]`, c, roleGpus(o, 'serving', Number(c?.deployment_config?.num_replicas ?? c?.deployment_config?.autoscaling_config?.min_replicas ?? 1))));
        }
      } else if (builder === 'build_pd_openai_app') {
        for (const role of ['prefill', 'decode'] as const) {
          const c = app.args?.[`${role}_config`];
          if (!c) {problems.push(`${at}.args: no ${role}_config`);} else {
            configs++;
            problems.push(...llmConfigProblems(`${at}.args.${role}_config`, c, roleGpus(o, role, 1)));
            if (c.engine_kwargs?.kv_transfer_config === undefined) problems.push(`${at}.args.${role}_config: no kv_transfer_config`);
          }
        }
      }
    }
    out.push({ source, problems, llmConfigs: configs });
  }
  return out;
}
