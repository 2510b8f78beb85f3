/**
 * A LeaderWorkerSet in place of a model server Deployment, for a component whose replicas span
 * nodes: the same name, labels and pod template content, with the template split into a leader
 * (Ray head and vLLM server, the only pod that serves HTTP) and workers (Ray nodes that hold their
 * GPUs for it), `layout.groupSize` pods per replica. Loaded only by translators (cdk8s-plus-34).
 */
import type { ApiObjectMetadata } from 'cdk8s';
import type { Construct } from 'constructs';
import { leaderWorkerSetOverrides } from './overrides';
import { leaderCommand, workerCommand } from './ray-launch';
import { k8s } from '../core/kube-api';
import { LABEL_MODEL_DEPLOYMENT } from '../core/labels';
import * as lws from '../imports/leaderworkerset.x-k8s.io';
import type { MultiNodeLayout } from '../provider-kit/multi-node-layout';
import { mergeIntoFinalJson } from '../provider-kit/overrides';
import { isJsonObject } from '../provider-kit/unstructured';

/** What a LeaderWorkerSet is built from: what the component's Deployment would have had. */
export interface LeaderWorkerSetPlan {
  readonly metadata: k8s.ObjectMeta;
  /** The Deployment's `spec.replicas`: groups; unset when an autoscaler owns the count. */
  readonly replicas?: number;
  readonly layout: MultiNodeLayout;
  /**
   * The pod template one pod of the Deployment would have run; its first container is the vLLM
   * server, whose `args` (with the layout's flags) the leader passes to vLLM's API server.
   */
  readonly template: k8s.PodTemplateSpec;
  /** `spec.provider.overrides`, written against a Deployment (`./overrides.ts` carries them over). */
  readonly overrides?: unknown;
}

/**
 * The leader's template: the vLLM container runs the leader script, with the server arguments as
 * its argv, and keeps its ports and probes (the leader is the group's only HTTP server).
 */
function leaderTemplate(template: k8s.PodTemplateSpec): k8s.PodTemplateSpec {
  const spec = template.spec!;
  const [server, ...rest] = spec.containers;
  return { ...template, spec: { ...spec, containers: [{ ...server, command: leaderCommand() }, ...rest] } };
}

/**
 * A worker's template: the same pod (image, env, GPUs, claims, volumes — Ray runs the model's
 * ranks here and each loads its own shard) whose container only joins the leader's Ray cluster:
 * no server arguments, ports or probes. Workers do not carry `airunway.ai/model-deployment`, the
 * label the InferencePool selects model servers by: they serve nothing.
 */
function workerTemplate(template: k8s.PodTemplateSpec): k8s.PodTemplateSpec {
  const spec = template.spec!;
  const [server, ...rest] = spec.containers;
  const { args: _args, ports: _ports, startupProbe: _s, livenessProbe: _l, readinessProbe: _r, ...kept } = server;
  const labels = { ...template.metadata?.labels };
  delete labels[LABEL_MODEL_DEPLOYMENT];
  return {
    ...template,
    metadata: { ...template.metadata, labels },
    spec: { ...spec, containers: [{ ...kept, command: workerCommand() }, ...rest] },
  };
}

/**
 * Creates the LeaderWorkerSet (construct id `id`): `leaderWorkerTemplate.size` the group size,
 * `RecreateGroupOnPodRestart` (one restarted pod leaves the engine's collective broken, so the
 * group restarts together) and `LeaderCreated` startup (workers start with the leader and retry
 * joining its Ray head, so no pod waits for another's readiness). Overrides are carried over after
 * everything else.
 */
export function addLeaderWorkerSet(scope: Construct, id: string, plan: LeaderWorkerSetPlan): lws.LeaderWorkerSet {
  const set = new lws.LeaderWorkerSet(scope, id, {
    metadata: plan.metadata as ApiObjectMetadata,
    spec: {
      ...(plan.replicas !== undefined && { replicas: plan.replicas }),
      startupPolicy: lws.LeaderWorkerSetSpecStartupPolicy.LEADER_CREATED,
      leaderWorkerTemplate: {
        // The generated binding types the templates as `any`: they are rendered to JSON here,
        // through the Kubernetes binding, so quantities and int-or-strings serialize as in a Deployment.
        size: plan.layout.groupSize,
        restartPolicy: lws.LeaderWorkerSetSpecLeaderWorkerTemplateRestartPolicy.RECREATE_GROUP_ON_POD_RESTART,
        leaderTemplate: k8s.toJson_PodTemplateSpec(leaderTemplate(plan.template)),
        workerTemplate: k8s.toJson_PodTemplateSpec(workerTemplate(plan.template)),
      },
    },
  });
  if (isJsonObject(plan.overrides)) mergeIntoFinalJson(set, leaderWorkerSetOverrides(plan.overrides));
  return set;
}
