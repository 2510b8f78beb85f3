/**
 * llm-d status mapping. AI Runway's llm-d controller maps its primary Deployment (`<md>`, or
 * `<md>-decode` in disaggregated mode) exactly as Direct vLLM does, so the shared Deployment
 * mapping is used (see `../common/deployment-status`).
 */
export {
  DEPLOYMENT_ENDPOINT_PORT,
  DEPLOYMENT_PROVIDER_CREATED_WHAT,
  mapDeploymentStatus,
  reconcileDeploymentStatus,
} from '../../provider-kit/deployment-status';
