/**
 * Most workers the controller's `--max-concurrent-reconciles` takes: the process's flag parser
 * and the construct that renders its Deployment (which refuses a larger `maxConcurrentReconciles`
 * at synth) read the one value.
 */
export const MAX_CONCURRENT_RECONCILES = 9999;
