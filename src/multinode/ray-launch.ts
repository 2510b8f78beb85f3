/**
 * How the pods of one multi-node vLLM replica become one engine: a Ray cluster per replica. The
 * leader pod starts the Ray head, waits until every pod of its group has joined, then runs the
 * vLLM server with the Ray executor, which places the ranks on the group's GPUs; the worker pods
 * only join the leader's Ray head and hold their GPUs for it.
 *
 * The LeaderWorkerSet controller gives every container of the group `LWS_LEADER_ADDRESS` (the
 * leader pod's DNS name) and `LWS_GROUP_SIZE` (pods in the group), which the scripts read as
 * ordinary environment variables.
 *
 * The scripts are constants: no user input is ever spliced into shell text. The vLLM arguments
 * (which carry user flags) follow the script as separate argv entries — `sh -c SCRIPT NAME ARG...`
 * makes them the script's `"$@"` — and reach vLLM unchanged through `exec vllm serve "$@"`, so a
 * value such as `x; rm -rf /` stays one argument. The scripts also avoid `$(` and `$$`: the kubelet
 * expands `$(VAR)` references and `$$` escapes in `command` and `args` before the shell sees them.
 */

/** Port of the Ray head (GCS) on the leader pod: Ray's default. */
export const RAY_HEAD_PORT = 6379;

/** Env var the LeaderWorkerSet controller sets to the leader pod's address. */
export const LWS_LEADER_ADDRESS_ENV = 'LWS_LEADER_ADDRESS';

/** Env var the LeaderWorkerSet controller sets to the number of pods in a group. */
export const LWS_GROUP_SIZE_ENV = 'LWS_GROUP_SIZE';

/** Seconds between two checks of the Ray cluster's size while the leader waits for its workers. */
export const RAY_WAIT_INTERVAL_SECONDS = 5;

/**
 * Counts the Ray nodes that are alive and fails until there are `LWS_GROUP_SIZE` of them. Python
 * rather than parsing `ray status`, whose text is not a stable interface.
 */
const COUNT_RAY_NODES =
  'import os, sys, ray; ray.init(address="auto", logging_level="ERROR"); ' +
  `sys.exit(0 if sum(1 for n in ray.nodes() if n["Alive"]) >= int(os.environ["${LWS_GROUP_SIZE_ENV}"]) else 1)`;

/**
 * The leader's script: Ray head, wait for the group, then vLLM in the foreground (`exec`, so the
 * server receives the pod's signals and its exit ends the container). `set -e` makes a failed
 * `ray start` end the container, and the LeaderWorkerSet's `RecreateGroupOnPodRestart` then
 * restarts the whole group together.
 */
export const LEADER_SCRIPT = [
  'set -e',
  `ray start --head --port=${RAY_HEAD_PORT} --disable-usage-stats`,
  `until python3 -c '${COUNT_RAY_NODES}' >/dev/null 2>&1; do`,
  `  echo "waiting for $${LWS_GROUP_SIZE_ENV} Ray nodes"`,
  `  sleep ${RAY_WAIT_INTERVAL_SECONDS}`,
  'done',
  'exec vllm serve "$@"',
].join('\n');

/**
 * A worker's script: join the leader's Ray head and stay in the foreground (`--block`) as long as
 * the Ray node runs. Retried, since the pods of a group start together and the leader's head may
 * not be listening yet; when the head goes away the LeaderWorkerSet recreates the whole group.
 */
export const WORKER_SCRIPT = [
  `until ray start --address="$${LWS_LEADER_ADDRESS_ENV}:${RAY_HEAD_PORT}" --disable-usage-stats --block; do`,
  `  sleep ${RAY_WAIT_INTERVAL_SECONDS}`,
  'done',
].join('\n');

/** `$0` of the scripts: names the process in `ps` and in the shell's own error messages. */
export const LEADER_PROCESS_NAME = 'multi-node-leader';
export const WORKER_PROCESS_NAME = 'multi-node-worker';

/** Container `command` of the leader; its `args` are the vLLM server arguments (`"$@"`). */
export function leaderCommand(): string[] {
  return ['/bin/sh', '-c', LEADER_SCRIPT, LEADER_PROCESS_NAME];
}

/** Container `command` of a worker; it takes no `args`. */
export function workerCommand(): string[] {
  return ['/bin/sh', '-c', WORKER_SCRIPT, WORKER_PROCESS_NAME];
}
