/**
 * How the pods of one multi-node vLLM replica become one engine: a Ray cluster per replica. The
 * leader pod starts the Ray head, waits until every pod of its group has joined, then runs the
 * vLLM server with the Ray executor, which places the ranks on the group's GPUs; the worker pods
 * only join the leader's Ray head and hold their GPUs for it.
 *
 * The LeaderWorkerSet controller gives every container of the group `LWS_LEADER_ADDRESS` (the
 * leader pod's DNS name) and `LWS_GROUP_SIZE` (pods in the group), which the scripts read as
 * ordinary environment variables. Other group controllers name them differently (Kthena's
 * `ENTRY_ADDRESS` and `GROUP_SIZE`), so the scripts take the names (`RayGroupEnv`), and the
 * server command the leader ends in (`vllm serve`, or a provider's own entry point).
 *
 * The scripts are constants: no user input is ever spliced into shell text. The vLLM arguments
 * (which carry user flags) follow the script as separate argv entries — `sh -c SCRIPT NAME ARG...`
 * makes them the script's `"$@"` — and reach vLLM unchanged through `exec vllm serve "$@"`, so a
 * value such as `x; rm -rf /` stays one argument. The scripts also avoid `$(` and `$$`: the kubelet
 * expands `$(VAR)` references and `$$` escapes in `command` and `args` before the shell sees them.
 */

import { VLLM_SERVE_COMMAND } from '../provider-kit/vllm-serve';

/** Port of the Ray head (GCS) on the leader pod: Ray's default. */
export const RAY_HEAD_PORT = 6379;

/** Env var the LeaderWorkerSet controller sets to the leader pod's address. */
export const LWS_LEADER_ADDRESS_ENV = 'LWS_LEADER_ADDRESS';

/** Env var the LeaderWorkerSet controller sets to the number of pods in a group. */
export const LWS_GROUP_SIZE_ENV = 'LWS_GROUP_SIZE';

/** Seconds between two checks of the Ray cluster's size while the leader waits for its workers. */
export const RAY_WAIT_INTERVAL_SECONDS = 5;

/** The environment variables of a group controller that the scripts read. */
export interface RayGroupEnv {
  /** Holds the leader (entry) pod's address, which resolves in cluster DNS. */
  readonly leaderAddress: string;
  /** Holds the number of pods in the group, the leader included. */
  readonly groupSize: string;
}

/** What the LeaderWorkerSet controller sets. */
export const LWS_GROUP_ENV: RayGroupEnv = { leaderAddress: LWS_LEADER_ADDRESS_ENV, groupSize: LWS_GROUP_SIZE_ENV };

/**
 * The vLLM server command the leader ends in: `vllm serve`, whose arguments start with the model
 * as the positional (`provider-kit/vllm-serve` says why not the image's entrypoint or
 * `--model`).
 */
export const VLLM_SERVER_COMMAND: readonly string[] = VLLM_SERVE_COMMAND;

/**
 * A name or command word spliced into the scripts: environment variable names, and the words of
 * the server command, which are constants of ours. Checked anyway, so that no caller can ever put
 * shell syntax (quotes, `$`, `;`, spaces) into the script text.
 */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const COMMAND_WORD = /^[A-Za-z0-9_./-]+$/;

function checkedEnv(env: RayGroupEnv): RayGroupEnv {
  for (const name of [env.leaderAddress, env.groupSize]) {
    if (!ENV_NAME.test(name)) throw new Error(`ray-launch: ${JSON.stringify(name)} is not an environment variable name`);
  }
  return env;
}

/**
 * Counts the Ray nodes that are alive and fails until there are as many as the group's size.
 * Python rather than parsing `ray status`, whose text is not a stable interface.
 */
function countRayNodes(groupSize: string): string {
  return 'import os, sys, ray; ray.init(address="auto", logging_level="ERROR"); ' +
    `sys.exit(0 if sum(1 for n in ray.nodes() if n["Alive"]) >= int(os.environ["${groupSize}"]) else 1)`;
}

/**
 * The leader's script: Ray head, wait for the group, then the server in the foreground (`exec`,
 * so the server receives the pod's signals and its exit ends the container). `set -e` makes a
 * failed `ray start` end the container, and the group controller's restart policy
 * (LeaderWorkerSet `RecreateGroupOnPodRestart`, Kthena's `RoleRecreate`) then restarts the whole
 * group together.
 */
export function rayLeaderScript(env: RayGroupEnv = LWS_GROUP_ENV, server: readonly string[] = VLLM_SERVER_COMMAND): string {
  const { groupSize } = checkedEnv(env);
  for (const word of server) {
    if (!COMMAND_WORD.test(word)) throw new Error(`ray-launch: ${JSON.stringify(word)} is not a plain command word`);
  }
  return [
    'set -e',
    `ray start --head --port=${RAY_HEAD_PORT} --disable-usage-stats`,
    `until python3 -c '${countRayNodes(groupSize)}' >/dev/null 2>&1; do`,
    `  echo "waiting for $${groupSize} Ray nodes"`,
    `  sleep ${RAY_WAIT_INTERVAL_SECONDS}`,
    'done',
    `exec ${server.join(' ')} "$@"`,
  ].join('\n');
}

/**
 * A worker's script: join the leader's Ray head and stay in the foreground (`--block`) as long as
 * the Ray node runs. Retried, since the pods of a group start together and the leader's head may
 * not be listening yet; when the head goes away the group controller recreates the whole group.
 */
export function rayWorkerScript(env: RayGroupEnv = LWS_GROUP_ENV): string {
  const { leaderAddress } = checkedEnv(env);
  return [
    `until ray start --address="$${leaderAddress}:${RAY_HEAD_PORT}" --disable-usage-stats --block; do`,
    `  sleep ${RAY_WAIT_INTERVAL_SECONDS}`,
    'done',
  ].join('\n');
}

/** The LeaderWorkerSet leader's script (`rayLeaderScript` with the LeaderWorkerSet's variables and the vLLM API server). */
export const LEADER_SCRIPT = rayLeaderScript();

/** The LeaderWorkerSet worker's script. */
export const WORKER_SCRIPT = rayWorkerScript();

/** `$0` of the scripts: names the process in `ps` and in the shell's own error messages. */
export const LEADER_PROCESS_NAME = 'multi-node-leader';
export const WORKER_PROCESS_NAME = 'multi-node-worker';

/** Container `command` of the leader; its `args` are the server arguments (`"$@"`). */
export function leaderCommand(env: RayGroupEnv = LWS_GROUP_ENV, server: readonly string[] = VLLM_SERVER_COMMAND): string[] {
  return ['/bin/sh', '-c', rayLeaderScript(env, server), LEADER_PROCESS_NAME];
}

/** Container `command` of a worker; it takes no `args`. */
export function workerCommand(env: RayGroupEnv = LWS_GROUP_ENV): string[] {
  return ['/bin/sh', '-c', rayWorkerScript(env), WORKER_PROCESS_NAME];
}
