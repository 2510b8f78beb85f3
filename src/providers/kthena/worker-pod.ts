import type { k8s } from 'cdk8s-plus-34';
import { KTHENA_GROUP_ENV } from './multi-node';
import { LABEL_MODEL_DEPLOYMENT } from '../../core/labels';
import { workerCommand } from '../../multinode/ray-launch';

/*
 * The worker pods of a multi-node role (`roles[].workerTemplate`): Ray nodes that join the entry
 * pod's Ray head and hold their GPUs for the vLLM server there.
 */

/**
 * A worker's template, made from the role's entry pod template so that the two cannot drift: the
 * same image, env, GPUs (`gpusPerNode`), claims, volumes and LoRA downloads — the Ray executor runs
 * ranks here, and each loads its shard of the weights and the adapters — with a container that
 * only joins the entry's Ray head (`workerCommand` with Kthena's `ENTRY_ADDRESS`): no server
 * arguments, ports or probes. Workers do not carry `airunway.ai/model-deployment`, the label the
 * ModelServer, our Service and an InferencePool select serving pods by, since they serve nothing;
 * they keep the role label, so the role's pods can still be listed together.
 */
export function workerPodTemplate(entry: k8s.PodTemplateSpec): k8s.PodTemplateSpec {
  const spec = entry.spec!;
  const [server, ...rest] = spec.containers;
  const { args: _args, ports: _ports, startupProbe: _s, livenessProbe: _l, readinessProbe: _r, ...kept } = server;
  const labels = { ...entry.metadata?.labels };
  delete labels[LABEL_MODEL_DEPLOYMENT];
  return {
    ...entry,
    metadata: { ...entry.metadata, labels },
    spec: { ...spec, containers: [{ ...kept, command: workerCommand(KTHENA_GROUP_ENV) }, ...rest] },
  };
}
