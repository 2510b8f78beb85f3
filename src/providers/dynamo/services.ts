import { DYNAMO_PROVIDER_NAME, DYNAMO_TEST_BACKEND_ANNOTATION } from './config';
import type { ResolvedModelDeployment } from '../../api/resolved-model-deployment';

/*
 * The services of a deployment's DynamoGraphDeployment: their keys, and which of them a
 * deployment generates (mocker mode and the gateway decide). Both the validation (overrides may
 * address these services) and the graph builder use it, so it stays free of cdk8s-plus-34.
 */

/** Service key of the aggregated worker, for every engine (see the quirk decisions in `./graph`). */
export const WORKER_SERVICE = 'VllmWorker';
/** Service key of the disaggregated prefill worker. */
export const PREFILL_WORKER_SERVICE = 'VllmPrefillWorker';
/** Service key of the disaggregated decode worker. */
export const DECODE_WORKER_SERVICE = 'VllmDecodeWorker';
/** Service key of the OpenAI-compatible frontend (gateway off, or mocker). */
export const FRONTEND_SERVICE = 'Frontend';
/** Service key of the endpoint picker (gateway on). */
export const EPP_SERVICE = 'Epp';

/** True in mocker mode (annotation `airunway.ai/dynamo-test-backend: mocker`). */
export function isMocker(md: Pick<ResolvedModelDeployment, 'annotations' | 'spec'>): boolean {
  return md.annotations?.[DYNAMO_TEST_BACKEND_ANNOTATION] === 'mocker' && md.spec.provider?.name === DYNAMO_PROVIDER_NAME;
}

/** The gateway is on unless `spec.gateway.enabled` is explicitly false; the mocker forces it off. */
export function gatewayEnabled(md: ResolvedModelDeployment): boolean {
  return !isMocker(md) && md.spec.gateway?.enabled !== false;
}

/** The services the deployment generates, sorted (what overrides may address without an image). */
export function generatedServiceNames(md: ResolvedModelDeployment): string[] {
  const front = gatewayEnabled(md) ? EPP_SERVICE : FRONTEND_SERVICE;
  const workerNames = md.mode === 'disaggregated' ? [DECODE_WORKER_SERVICE, PREFILL_WORKER_SERVICE] : [WORKER_SERVICE];
  return [front, ...workerNames].sort();
}
